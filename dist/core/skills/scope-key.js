"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ScopeError = void 0;
exports.safeSegment = safeSegment;
exports.isSafeSegment = isSafeSegment;
exports.scopeKey = scopeKey;
exports.skillIdForName = skillIdForName;
const hash_1 = require("./hash");
/**
 * Identifiers kept verbatim as one storage-key segment: ASCII letters, digits,
 * `.`, `_`, `-`, starting with a letter or digit (so never `.`/`..` or a
 * hidden name), at most 64 characters. Everything else is replaced.
 */
const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_SKILL_ID_LENGTH = 64;
/**
 * One safe storage/workflow-id segment for an untrusted identifier.
 * Safe ids are kept; anything else (traversal, slashes, control characters,
 * unicode, empty, too long) becomes `id-{16 hex of sha256(id)}`, which is
 * itself safe, so the mapping is idempotent.
 */
function safeSegment(id) {
    if (SAFE_SEGMENT.test(id))
        return id;
    return `id-${(0, hash_1.shortHash)(id)}`;
}
function isSafeSegment(id) {
    return SAFE_SEGMENT.test(id);
}
class ScopeError extends Error {
    name = 'ScopeError';
}
exports.ScopeError = ScopeError;
/** `global`, `apps/{app}` or `users/{app}/{user}`, every identifier passed through safeSegment. */
function scopeKey(scope) {
    switch (scope.mode) {
        case 'none':
            return 'global';
        case 'app':
            return `apps/${safeSegment(requireId(scope.app, 'app', scope.mode))}`;
        case 'user':
            return `users/${safeSegment(requireId(scope.app, 'app', scope.mode))}/${safeSegment(requireId(scope.user, 'user', scope.mode))}`;
        default:
            throw new ScopeError(`unknown scope mode ${JSON.stringify(scope.mode)}`);
    }
}
function requireId(value, field, mode) {
    if (value === undefined || value === '')
        throw new ScopeError(`scope mode "${mode}" needs a non-empty ${field}`);
    return value;
}
/**
 * A stable, readable skill id from a skill name: lowercase ASCII slug with
 * hyphens (`Weather - Multi-City` → `weather-multi-city`). Names that
 * normalize to the same slug are the same skill (the reference's canonical
 * name rule). A name with no ASCII letters or digits becomes `id-{hash}`;
 * a slug longer than 64 characters keeps its head and gains a hash suffix so
 * two long names never collide on a shared prefix.
 */
function skillIdForName(name) {
    const slug = name
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
    if (slug === '')
        return `id-${(0, hash_1.shortHash)(name.trim())}`;
    if (slug.length <= MAX_SKILL_ID_LENGTH)
        return slug;
    const suffix = (0, hash_1.shortHash)(slug);
    const head = slug.slice(0, MAX_SKILL_ID_LENGTH - suffix.length - 1).replace(/-+$/, '');
    return `${head}-${suffix}`;
}
//# sourceMappingURL=scope-key.js.map