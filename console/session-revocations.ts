import { PreconditionConflictError, revokedSessionKey, type ObjectStore } from '../storage';

/** How long a replica trusts its own "not revoked" answer before asking S3 again. */
export const REVOCATION_CHECK_EVERY_MS = 10_000;
const MAX_CACHED = 10_000;

/**
 * Logout for stateless session cookies: a cookie cannot be taken back, so a logout writes a
 * marker `console/revoked-sessions/{sessionId}.json` (create-only, one per session, no
 * contended object) and every replica refuses a cookie whose session has one. The replica
 * that logged the user out refuses the cookie at once; the others within
 * REVOCATION_CHECK_EVERY_MS, since each remembers a "not revoked" answer that long (one HEAD
 * per session per replica per 10 s instead of one per request).
 */
export class SessionRevocations {
  private readonly checked = new Map<string, { revoked: boolean; at: number }>();

  constructor(
    private readonly objects: ObjectStore,
    private readonly checkEveryMs = REVOCATION_CHECK_EVERY_MS,
  ) {}

  async revoke(sessionId: string, expiresAt: number, now = Date.now()): Promise<void> {
    this.remember(sessionId, true, now);
    try {
      await this.objects.putCreateOnly(revokedSessionKey(sessionId), { sessionId, revokedAt: new Date(now).toISOString(), expiresAt: new Date(expiresAt).toISOString() });
    } catch (e) {
      if (!(e instanceof PreconditionConflictError)) throw e; // revoked already
    }
  }

  async isRevoked(sessionId: string, now = Date.now()): Promise<boolean> {
    const known = this.checked.get(sessionId);
    if (known && (known.revoked || now - known.at < this.checkEveryMs)) return known.revoked;
    const revoked = await this.objects.exists(revokedSessionKey(sessionId));
    this.remember(sessionId, revoked, now);
    return revoked;
  }

  private remember(sessionId: string, revoked: boolean, now: number): void {
    this.checked.delete(sessionId);
    this.checked.set(sessionId, { revoked, at: now });
    if (this.checked.size <= MAX_CACHED) return;
    for (const [id, entry] of this.checked) {
      if (this.checked.size <= MAX_CACHED) break;
      if (!entry.revoked || now - entry.at > 24 * 3600_000) this.checked.delete(id);
    }
  }
}
