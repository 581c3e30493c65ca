/**
 * Failed credential checks (sign-in form, bearer tokens on the API) per client key in a
 * sliding window: once `max` failures fall inside `windowMs`, every credential check from
 * that key is refused until the oldest leaves the window. Successes do not clear the count:
 * one valid token must not buy unlimited guesses at others. In memory, per process: with N
 * console replicas a client spread over all of them gets up to N × max (docs/security.md).
 */
export class CredentialLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly opts: { max: number; windowMs: number } = { max: 10, windowMs: 60_000 },
    private readonly maxKeys = 100_000,
  ) {}

  /** Before checking a credential: may this key try now? */
  check(key: string, now = Date.now()): { allowed: boolean; retryAfterSeconds: number } {
    const recent = this.recent(key, now);
    if (recent.length < this.opts.max) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0] + this.opts.windowMs - now) / 1000)) };
  }

  /** A credential from this key was wrong. */
  failed(key: string, now = Date.now()): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.failures.delete(key); // re-inserted last: the map's order is oldest failure first
    this.failures.set(key, recent);
    if (this.failures.size > this.maxKeys) this.prune(now);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.opts.windowMs);
  }

  private prune(now: number): void {
    for (const [k, times] of this.failures) if (times.every((t) => t <= now - this.opts.windowMs)) this.failures.delete(k);
    // Still full (many keys failing at once): forget the least recent ones.
    for (const k of this.failures.keys()) {
      if (this.failures.size <= this.maxKeys) break;
      this.failures.delete(k);
    }
  }
}
