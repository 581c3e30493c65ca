import { randomBytes, timingSafeEqual } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import { z } from 'zod';
import type { PayloadKey } from '../codec/keys';
import { ConsoleUserSchema, type ConsoleUser } from './users';

export interface ConsoleSession {
  /** Random, names the session (the JWT id): what a logout revokes. */
  id: string;
  user: ConsoleUser;
  /** Sent back in every form as `_csrf`; a post without it (or with another) is refused. */
  csrf: string;
  /** Epoch ms: 8 h after sign-in, or the OIDC token's expiry if sooner. */
  expiresAt: number;
  /** Where the user came from: a users-file session follows the file's current entry. */
  source: 'users-file' | 'oidc';
  /** One message for the next page (the answer to a decision or a rollback). */
  flash?: string;
}

export const SESSION_COOKIE = 'evolution_session';
export const SESSION_TTL_MS = 8 * 3600_000;
/** Browsers drop cookies over 4096 bytes; a session that would not fit is refused at sign-in. */
export const MAX_COOKIE_BYTES = 4000;

export const newSecret = () => randomBytes(32).toString('base64url');

export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class SessionTooLargeError extends Error {
  override name = 'SessionTooLargeError';
}

const AUDIENCE = 'evolution-console-session';

const ClaimsSchema = z.object({
  jti: z.string().min(16),
  exp: z.number(),
  csrf: z.string().min(16),
  src: z.enum(['users-file', 'oidc']),
  user: ConsoleUserSchema,
  flash: z.string().optional(),
});

/**
 * Sessions as cookies any console replica can read, and no one else can read or forge:
 * a JWE (`dir` + A256GCM, jose) under the first key of EVOLUTION_CONSOLE_SESSION_KEYS,
 * opened with whichever key its `kid` names, so keys rotate like the payload keys. Nothing
 * is kept in the process: a restarted or different replica accepts the same cookie. A
 * users-file session takes the user's current role and scopes from the file on every
 * request (a user removed from the file is signed out at once); an OIDC session carries
 * the token's claims and ends when the token expires.
 */
export class SessionCookies {
  private readonly byId: Map<string, Uint8Array>;

  constructor(
    private readonly keys: readonly PayloadKey[],
    private readonly usersFileUser: (name: string) => ConsoleUser | undefined,
    private readonly ttlMs = SESSION_TTL_MS,
  ) {
    if (keys.length === 0) throw new Error('SessionCookies needs at least one key');
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  create(user: ConsoleUser, source: ConsoleSession['source'], tokenExpiresAt?: number, now = Date.now()): ConsoleSession {
    const expiresAt = Math.min(now + this.ttlMs, tokenExpiresAt ?? Number.POSITIVE_INFINITY);
    return { id: newSecret(), user, csrf: newSecret(), expiresAt, source };
  }

  async seal(session: ConsoleSession): Promise<string> {
    const { id, key } = this.keys[0]!;
    const claims = { csrf: session.csrf, src: session.source, user: session.user, ...(session.flash ? { flash: session.flash } : {}) };
    const sealed = await new EncryptJWT(claims)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: id })
      .setJti(session.id)
      .setAudience(AUDIENCE)
      .setExpirationTime(Math.floor(session.expiresAt / 1000))
      .encrypt(key);
    if (sealed.length > MAX_COOKIE_BYTES)
      throw new SessionTooLargeError(`this sign-in does not fit in a session cookie (${sealed.length} bytes; too many scopes?): use the token as a bearer token on the API`);
    return sealed;
  }

  /** The session a cookie holds, or undefined when it is missing, forged, expired or under an unknown key. */
  async open(cookie: string | undefined, now = Date.now()): Promise<ConsoleSession | undefined> {
    if (!cookie || cookie.length > MAX_COOKIE_BYTES) return undefined;
    try {
      const { payload } = await jwtDecrypt(
        cookie,
        async (header) => {
          const key = header.kid ? this.byId.get(header.kid) : undefined;
          if (!key) throw new Error('unknown session key');
          return key;
        },
        { audience: AUDIENCE, keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'], requiredClaims: ['exp', 'jti'], currentDate: new Date(now) },
      );
      const claims = ClaimsSchema.parse(payload);
      const user = claims.src === 'users-file' ? this.usersFileUser(claims.user.name) : claims.user;
      if (!user) return undefined;
      return { id: claims.jti, user, csrf: claims.csrf, expiresAt: claims.exp * 1000, source: claims.src, ...(claims.flash ? { flash: claims.flash } : {}) };
    } catch {
      return undefined;
    }
  }
}
