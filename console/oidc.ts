import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { ConsoleUserSchema, type ConsoleUser } from './users';

/**
 * OIDC/JWT sign-in (the production option): a token signed by the issuer's keys (fetched
 * from its JWKS URL) names the user (`preferred_username`, else `email`, else `sub`), the
 * role (`evolution_role`) and the scopes (`evolution_scopes`: a list or a space-separated
 * string).
 */
export interface OidcSettings {
  issuer: string;
  jwksUrl: string;
  audience?: string;
}

const ClaimsSchema = z.object({
  sub: z.string().optional(),
  preferred_username: z.string().optional(),
  email: z.string().optional(),
  evolution_role: z.unknown(),
  evolution_scopes: z.union([z.array(z.string()), z.string().transform((s) => s.split(/\s+/).filter(Boolean))]),
});

export type JwtVerifier = (token: string) => Promise<ConsoleUser | undefined>;

export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

export function jwtVerifier(settings: OidcSettings, keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(settings.jwksUrl))): JwtVerifier {
  return async (token) => {
    if (!looksLikeJwt(token)) return undefined;
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: settings.issuer, audience: settings.audience, algorithms: ['RS256', 'ES256', 'EdDSA', 'PS256'] });
      const claims = ClaimsSchema.parse(payload);
      const user = ConsoleUserSchema.safeParse({ name: claims.preferred_username ?? claims.email ?? claims.sub, role: claims.evolution_role, scopes: claims.evolution_scopes });
      return user.success ? user.data : undefined;
    } catch {
      return undefined;
    }
  };
}
