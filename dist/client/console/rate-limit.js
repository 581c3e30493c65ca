"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LoginRateLimiter = void 0;
/**
 * Login attempts per client address in a sliding window: at most `max` attempts per
 * `windowMs`; a successful login clears the address's count.
 */
class LoginRateLimiter {
    opts;
    attempts = new Map();
    constructor(opts = { max: 10, windowMs: 60_000 }) {
        this.opts = opts;
    }
    /** Records an attempt; `allowed: false` (with seconds to wait) once over the limit. */
    attempt(key, now = Date.now()) {
        const recent = (this.attempts.get(key) ?? []).filter((t) => t > now - this.opts.windowMs);
        if (recent.length >= this.opts.max) {
            this.attempts.set(key, recent);
            return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0] + this.opts.windowMs - now) / 1000)) };
        }
        recent.push(now);
        this.attempts.set(key, recent);
        if (this.attempts.size > 10_000)
            this.prune(now);
        return { allowed: true, retryAfterSeconds: 0 };
    }
    succeeded(key) {
        this.attempts.delete(key);
    }
    prune(now) {
        for (const [k, times] of this.attempts)
            if (times.every((t) => t <= now - this.opts.windowMs))
                this.attempts.delete(k);
    }
}
exports.LoginRateLimiter = LoginRateLimiter;
//# sourceMappingURL=rate-limit.js.map