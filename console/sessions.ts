import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ConsoleUser } from './users';

export interface ConsoleSession {
  id: string;
  user: ConsoleUser;
  /** Sent back in every form as `_csrf`; a post without it (or with another) is refused. */
  csrf: string;
  expiresAt: number;
  /** One message for the next page (the answer to a decision or a rollback). */
  flash?: string;
}

export const SESSION_COOKIE = 'evolution_session';

export const newSecret = () => randomBytes(32).toString('base64url');

export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Sessions in memory: a restarted console asks everyone to log in again. */
export class SessionStore {
  private readonly sessions = new Map<string, ConsoleSession>();

  constructor(private readonly ttlMs = 8 * 3600_000) {}

  create(user: ConsoleUser, now = Date.now()): ConsoleSession {
    for (const [id, s] of this.sessions) if (s.expiresAt <= now) this.sessions.delete(id);
    const session = { id: newSecret(), user, csrf: newSecret(), expiresAt: now + this.ttlMs };
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string | undefined, now = Date.now()): ConsoleSession | undefined {
    if (!id) return undefined;
    const s = this.sessions.get(id);
    if (!s) return undefined;
    if (s.expiresAt <= now) {
      this.sessions.delete(id);
      return undefined;
    }
    return s;
  }

  delete(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }
}
