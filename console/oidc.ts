import { request } from 'node:https';
import { createRemoteJWKSet, customFetch, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { ConsoleUserSchema, type ConsoleUser } from './users';

/**
 * OIDC/JWT sign-in (the production option): a token signed by the issuer's keys (fetched
 * from its JWKS URL, https only) for this console's audience, with an expiry, names the user
 * (`preferred_username`, else `email`, else `sub`), the role (`evolution_role`) and the
 * scopes (`evolution_scopes`: a list or a space-separated string).
 */
export interface OidcSettings {
  issuer: string;
  jwksUrl: string;
  audience: string;
  /** PEM CA bundle to trust for the JWKS URL (an issuer behind a private CA). */
  ca?: string;
}

/** Who a token names, and until when it may be used (a session never outlives its token). */
export interface VerifiedToken {
  user: ConsoleUser;
  /** Epoch ms; undefined for users-file tokens, which do not expire. */
  expiresAt?: number;
}

const ClaimsSchema = z.object({
  sub: z.string().optional(),
  preferred_username: z.string().optional(),
  email: z.string().optional(),
  exp: z.number(),
  evolution_role: z.unknown(),
  evolution_scopes: z.union([z.array(z.string()), z.string().transform((s) => s.split(/\s+/).filter(Boolean))]),
});

export type JwtVerifier = (token: string) => Promise<VerifiedToken | undefined>;

export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

const MAX_JWKS_BYTES = 1024 * 1024;

/** jose's fetch, through Node's https with a private CA: a JWKS of at most 1 MB. */
function fetchTrusting(ca: string) {
  return (url: string, options: { headers: Headers; signal: AbortSignal }) =>
    new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: 'GET', ca, headers: Object.fromEntries(options.headers), signal: options.signal }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_JWKS_BYTES) req.destroy(new Error(`the JWKS at ${url} is larger than ${MAX_JWKS_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () =>
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 502, headers: { 'content-type': String(res.headers['content-type'] ?? '') } })),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
}

export function remoteKeys(settings: OidcSettings): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(settings.jwksUrl), settings.ca ? { [customFetch]: fetchTrusting(settings.ca) } : {});
}

export function jwtVerifier(settings: OidcSettings, keys: JWTVerifyGetKey = remoteKeys(settings)): JwtVerifier {
  return async (token) => {
    if (!looksLikeJwt(token)) return undefined;
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: settings.issuer,
        audience: settings.audience,
        requiredClaims: ['exp'],
        algorithms: ['RS256', 'ES256', 'EdDSA', 'PS256'],
      });
      const claims = ClaimsSchema.parse(payload);
      const user = ConsoleUserSchema.safeParse({ name: claims.preferred_username ?? claims.email ?? claims.sub, role: claims.evolution_role, scopes: claims.evolution_scopes });
      return user.success ? { user: user.data, expiresAt: claims.exp * 1000 } : undefined;
    } catch {
      return undefined;
    }
  };
}
