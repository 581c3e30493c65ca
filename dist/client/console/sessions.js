"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SessionStore = exports.newSecret = exports.SESSION_COOKIE = void 0;
exports.sameSecret = sameSecret;
const node_crypto_1 = require("node:crypto");
exports.SESSION_COOKIE = 'evolution_session';
const newSecret = () => (0, node_crypto_1.randomBytes)(32).toString('base64url');
exports.newSecret = newSecret;
function sameSecret(a, b) {
    if (!a || !b)
        return false;
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && (0, node_crypto_1.timingSafeEqual)(x, y);
}
/** Sessions in memory: a restarted console asks everyone to log in again. */
class SessionStore {
    ttlMs;
    sessions = new Map();
    constructor(ttlMs = 8 * 3600_000) {
        this.ttlMs = ttlMs;
    }
    create(user, now = Date.now()) {
        for (const [id, s] of this.sessions)
            if (s.expiresAt <= now)
                this.sessions.delete(id);
        const session = { id: (0, exports.newSecret)(), user, csrf: (0, exports.newSecret)(), expiresAt: now + this.ttlMs };
        this.sessions.set(session.id, session);
        return session;
    }
    get(id, now = Date.now()) {
        if (!id)
            return undefined;
        const s = this.sessions.get(id);
        if (!s)
            return undefined;
        if (s.expiresAt <= now) {
            this.sessions.delete(id);
            return undefined;
        }
        return s;
    }
    delete(id) {
        if (id)
            this.sessions.delete(id);
    }
}
exports.SessionStore = SessionStore;
//# sourceMappingURL=sessions.js.map