"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ScopeKeySchema = exports.SCOPE_KEY_PATTERN = exports.SCOPE_KEY_SEGMENT = exports.ScopeSchema = exports.ScopeModeSchema = void 0;
const zod_1 = require("zod");
/** Who shares a skill library: everyone (none), one app, or one user of one app. */
exports.ScopeModeSchema = zod_1.z.enum(['none', 'app', 'user']);
exports.ScopeSchema = zod_1.z
    .object({
    mode: exports.ScopeModeSchema,
    app: zod_1.z.string().min(1).max(512).optional(),
    user: zod_1.z.string().min(1).max(512).optional(),
})
    .superRefine((s, ctx) => {
    if (s.mode !== 'none' && !s.app)
        ctx.addIssue({ code: 'custom', path: ['app'], message: `scope mode "${s.mode}" needs an app` });
    if (s.mode === 'user' && !s.user)
        ctx.addIssue({ code: 'custom', path: ['user'], message: 'scope mode "user" needs a user' });
});
/**
 * One identifier segment of a scope key: kept verbatim when it is safe (ASCII letters,
 * digits, `.`, `_`, `-`, starting with a letter or digit, at most 64 characters),
 * otherwise `id-{16 hex of sha256(identifier)}` (see core/skills/scope-key).
 */
exports.SCOPE_KEY_SEGMENT = '[A-Za-z0-9][A-Za-z0-9._-]{0,63}';
/** `global`, `apps/{app}` or `users/{app}/{user}`. */
exports.SCOPE_KEY_PATTERN = new RegExp(`^(?:global|apps/${exports.SCOPE_KEY_SEGMENT}|users/${exports.SCOPE_KEY_SEGMENT}/${exports.SCOPE_KEY_SEGMENT})$`);
exports.ScopeKeySchema = zod_1.z
    .string()
    .regex(exports.SCOPE_KEY_PATTERN, 'must be a scope key: global, apps/{app} or users/{app}/{user}, each id [A-Za-z0-9][A-Za-z0-9._-]{0,63} (unsafe ids become id-{16 hex})')
    .describe('Scope key: global, apps/{app} or users/{app}/{user}; an app or user id that is not [A-Za-z0-9][A-Za-z0-9._-]{0,63} is written id-{first 16 hex of sha256(id)}.');
//# sourceMappingURL=scope.js.map