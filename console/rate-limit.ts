/**
 * Login attempts per client address in a sliding window: at most `max` attempts per
 * `windowMs`; a successful login clears the address's count.
 */
export class LoginRateLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(private readonly opts: { max: number; windowMs: number } = { max: 10, windowMs: 60_000 }) {}

  /** Records an attempt; `allowed: false` (with seconds to wait) once over the limit. */
  attempt(key: string, now = Date.now()): { allowed: boolean; retryAfterSeconds: number } {
    const recent = (this.attempts.get(key) ?? []).filter((t) => t > now - this.opts.windowMs);
    if (recent.length >= this.opts.max) {
      this.attempts.set(key, recent);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0] + this.opts.windowMs - now) / 1000)) };
    }
    recent.push(now);
    this.attempts.set(key, recent);
    if (this.attempts.size > 10_000) this.prune(now);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  succeeded(key: string): void {
    this.attempts.delete(key);
  }

  private prune(now: number): void {
    for (const [k, times] of this.attempts) if (times.every((t) => t <= now - this.opts.windowMs)) this.attempts.delete(k);
  }
}
