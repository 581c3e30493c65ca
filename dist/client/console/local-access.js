"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startLocalConsole = startLocalConsole;
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const server_1 = require("./server");
const users_1 = require("./users");
/**
 * A console for one local user (the demo's): a fresh token whose hash is written to
 * `usersFile`, served on `port` (or any free port when it is taken).
 */
async function startLocalConsole(deps, opts) {
    const token = (0, node_crypto_1.randomBytes)(24).toString('base64url');
    const users = [{ name: opts.name, role: opts.role ?? 'approver', scopes: opts.scopes, tokenSha256: (0, users_1.tokenSha256)(token) }];
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(opts.usersFile), { recursive: true });
    (0, node_fs_1.writeFileSync)(opts.usersFile, `${JSON.stringify(users, null, 2)}\n`, { mode: 0o600 });
    const settings = { host: opts.host ?? '127.0.0.1', port: opts.port ?? 8080, users };
    let running;
    try {
        running = await (0, server_1.startConsole)(deps, settings);
    }
    catch (e) {
        if (e.code !== 'EADDRINUSE')
            throw e;
        running = await (0, server_1.startConsole)(deps, { ...settings, port: 0 });
    }
    return { ...running, token, usersFile: opts.usersFile };
}
//# sourceMappingURL=local-access.js.map