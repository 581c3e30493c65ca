"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REPO_ROOT = void 0;
exports.cacheDir = cacheDir;
exports.stateDir = stateDir;
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
/** Repository root (this file lives in `<root>/infra`). */
exports.REPO_ROOT = (0, node_path_1.resolve)(__dirname, '..');
/** Downloaded binaries live outside the repo, shared by every clone on the machine. */
function cacheDir() {
    const base = process.env.EVOLUTION_CACHE_DIR || (0, node_path_1.join)(process.env.XDG_CACHE_HOME || (0, node_path_1.join)((0, node_os_1.homedir)(), '.cache'), 'skill-evolution');
    return (0, node_path_1.resolve)(base);
}
/** Per-checkout runtime state: service pids, ports, data files, logs. */
function stateDir() {
    return (0, node_path_1.resolve)(process.env.EVOLUTION_STATE_DIR || (0, node_path_1.join)(exports.REPO_ROOT, '.evolution'));
}
//# sourceMappingURL=paths.js.map