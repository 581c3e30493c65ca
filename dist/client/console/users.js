"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UsersFileSchema = exports.ConsoleUserSchema = exports.ROLES = void 0;
exports.tokenSha256 = tokenSha256;
exports.parseUsers = parseUsers;
exports.loadUsersFile = loadUsersFile;
exports.userForToken = userForToken;
exports.scopeMatches = scopeMatches;
exports.canSee = canSee;
exports.canAct = canAct;
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const zod_1 = require("zod");
const errors_1 = require("../errors");
/**
 * Who may use the console: `EVOLUTION_CONSOLE_USERS` names a JSON file of users, each
 * with a role, the scopes they may see (`global`, `apps/shop`, `users/shop/*`: a trailing
 * `*` matches any rest) and the SHA-256 of their token (the token itself is never stored).
 */
exports.ROLES = ['viewer', 'approver', 'admin'];
const ScopePatternSchema = zod_1.z
    .string()
    .trim()
    .min(1, 'a scope pattern must not be empty')
    .refine((p) => !p.slice(0, -1).includes('*'), 'a scope pattern may only end with "*" (a trailing wildcard)');
exports.ConsoleUserSchema = zod_1.z.object({
    name: zod_1.z.string().trim().min(1, 'a user needs a name').max(200),
    role: zod_1.z.enum(exports.ROLES),
    scopes: zod_1.z.array(ScopePatternSchema),
});
exports.UsersFileSchema = zod_1.z
    .array(exports.ConsoleUserSchema.extend({ tokenSha256: zod_1.z.string().regex(/^[0-9a-fA-F]{64}$/, 'tokenSha256 must be 64 hex digits (sha256 of the token)') }))
    .superRefine((users, ctx) => {
    const seen = new Set();
    users.forEach((u, i) => {
        if (seen.has(u.name))
            ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `user name "${u.name}" appears twice` });
        seen.add(u.name);
    });
});
function tokenSha256(token) {
    return (0, node_crypto_1.createHash)('sha256').update(token, 'utf8').digest('hex');
}
function parseUsers(value, where = 'users file') {
    const r = exports.UsersFileSchema.safeParse(value);
    if (!r.success)
        throw new errors_1.InputError(`invalid ${where}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    return r.data;
}
function loadUsersFile(path) {
    let text;
    try {
        text = (0, node_fs_1.readFileSync)(path, 'utf8');
    }
    catch (e) {
        throw new errors_1.InputError(`cannot read the console users file ${path} (EVOLUTION_CONSOLE_USERS): ${e.message}`);
    }
    try {
        return parseUsers(JSON.parse(text), `console users file ${path}`);
    }
    catch (e) {
        if (e instanceof SyntaxError)
            throw new errors_1.InputError(`console users file ${path} is not JSON: ${e.message}`);
        throw e;
    }
}
/**
 * The user a token belongs to. Every stored hash is compared in constant time, and all of
 * them are compared whatever matched, so timing tells nothing about the token or the users.
 */
function userForToken(users, token) {
    const digest = (0, node_crypto_1.createHash)('sha256').update(token, 'utf8').digest();
    let found;
    for (const u of users) {
        const stored = Buffer.from(u.tokenSha256, 'hex');
        if ((0, node_crypto_1.timingSafeEqual)(stored, digest) && !found)
            found = u;
    }
    return found && { name: found.name, role: found.role, scopes: found.scopes };
}
function scopeMatches(pattern, scopeKey) {
    return pattern.endsWith('*') ? scopeKey.startsWith(pattern.slice(0, -1)) : pattern === scopeKey;
}
function canSee(user, scopeKey) {
    return user.scopes.some((p) => scopeMatches(p, scopeKey));
}
/** Approvers and admins decide and roll back; viewers only read. */
function canAct(user) {
    return user.role === 'approver' || user.role === 'admin';
}
//# sourceMappingURL=users.js.map