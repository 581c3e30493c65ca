"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withDirLock = withDirLock;
exports.withDirLockAsync = withDirLockAsync;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const STALE_MS = 10 * 60_000;
const WAIT_MS = 15 * 60_000;
/** One attempt at a cross-process lock: mkdir is atomic; a dead holder's lock is broken. */
function tryAcquire(lockDir) {
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(lockDir), { recursive: true });
    try {
        (0, node_fs_1.mkdirSync)(lockDir);
        (0, node_fs_1.writeFileSync)((0, node_path_1.join)(lockDir, 'pid'), String(process.pid));
        return true;
    }
    catch {
        if (isStale(lockDir))
            (0, node_fs_1.rmSync)(lockDir, { recursive: true, force: true });
        return false;
    }
}
function isStale(lockDir) {
    try {
        if (Date.now() - (0, node_fs_1.statSync)(lockDir).mtimeMs > STALE_MS)
            return true;
        const pid = Number((0, node_fs_1.readFileSync)((0, node_path_1.join)(lockDir, 'pid'), 'utf8'));
        if (!pid)
            return false;
        process.kill(pid, 0);
        return false;
    }
    catch (e) {
        return e.code === 'ESRCH';
    }
}
function withDirLock(lockDir, fn) {
    const deadline = Date.now() + WAIT_MS;
    while (!tryAcquire(lockDir)) {
        if (Date.now() > deadline)
            throw new Error(`timed out waiting for lock ${lockDir}`);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
    try {
        return fn();
    }
    finally {
        (0, node_fs_1.rmSync)(lockDir, { recursive: true, force: true });
    }
}
async function withDirLockAsync(lockDir, fn) {
    const deadline = Date.now() + WAIT_MS;
    while (!tryAcquire(lockDir)) {
        if (Date.now() > deadline)
            throw new Error(`timed out waiting for lock ${lockDir}`);
        await new Promise((r) => setTimeout(r, 200));
    }
    try {
        return await fn();
    }
    finally {
        (0, node_fs_1.rmSync)(lockDir, { recursive: true, force: true });
    }
}
//# sourceMappingURL=lock.js.map