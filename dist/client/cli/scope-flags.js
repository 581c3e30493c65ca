"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.scopeFromFlags = scopeFromFlags;
exports.scopeKeyFromFlags = scopeKeyFromFlags;
const scope_key_1 = require("../../core/skills/scope-key");
const args_1 = require("./args");
/**
 * --scope none|app|user with --app/--user. Without --scope: user if --user is given,
 * app if --app is given, else none (global).
 */
function scopeFromFlags(args) {
    const app = (0, args_1.flag)(args, 'app');
    const user = (0, args_1.flag)(args, 'user');
    const given = (0, args_1.flag)(args, 'scope');
    if (given !== undefined && !['none', 'app', 'user'].includes(given))
        throw new args_1.UsageError(`--scope must be none, app or user, got "${given}"`);
    const mode = given ?? (user ? 'user' : app ? 'app' : 'none');
    if (mode !== 'none' && !app)
        throw new args_1.UsageError(`--scope ${mode} needs --app`);
    if (mode === 'user' && !user)
        throw new args_1.UsageError('--scope user needs --user');
    return { mode, app: mode === 'none' ? undefined : app, user: mode === 'user' ? user : undefined };
}
function scopeKeyFromFlags(args) {
    return (0, scope_key_1.scopeKey)(scopeFromFlags(args));
}
//# sourceMappingURL=scope-flags.js.map