"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startDetached = startDetached;
exports.isAlive = isAlive;
exports.stopProcessGroup = stopProcessGroup;
exports.sleep = sleep;
exports.freePorts = freePorts;
exports.portsFree = portsFree;
exports.reusePortsOrFresh = reusePortsOrFresh;
exports.waitUntil = waitUntil;
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const node_net_1 = require("node:net");
/** Starts a long-lived process in its own process group, logging to a file. */
function startDetached(command, args, opts) {
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(opts.logFile), { recursive: true });
    const fd = (0, node_fs_1.openSync)(opts.logFile, 'a');
    const child = (0, node_child_process_1.spawn)(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, detached: true, stdio: ['ignore', fd, fd] });
    (0, node_fs_1.closeSync)(fd);
    child.unref();
    if (!child.pid)
        throw new Error(`could not start ${command}`);
    return child.pid;
}
function isAlive(pid) {
    if (!pid)
        return false;
    try {
        process.kill(pid, 0);
        return true;
    }
    catch {
        return false;
    }
}
/** SIGTERM to the process group, then SIGKILL if it has not exited within the grace period. */
async function stopProcessGroup(pid, graceMs = 10_000) {
    const signal = (sig) => {
        try {
            process.kill(-pid, sig);
        }
        catch {
            try {
                process.kill(pid, sig);
            }
            catch {
                /* already gone */
            }
        }
    };
    signal('SIGTERM');
    const deadline = Date.now() + graceMs;
    while (isAlive(pid) && Date.now() < deadline)
        await sleep(100);
    if (isAlive(pid))
        signal('SIGKILL');
}
function sleep(ms) {
    return new Promise((r) => setTimeout(r, ms));
}
/** Asks the kernel for free loopback ports (held together so they are distinct). */
async function freePorts(count) {
    const servers = await Promise.all(Array.from({ length: count }, () => new Promise((resolve, reject) => {
        const s = (0, node_net_1.createServer)();
        s.once('error', reject);
        s.listen(0, '127.0.0.1', () => resolve(s));
    })));
    const ports = servers.map((s) => s.address().port);
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    return ports;
}
/** Whether every one of these loopback ports can be bound right now. */
async function portsFree(ports) {
    const servers = [];
    try {
        for (const port of ports) {
            servers.push(await new Promise((resolve, reject) => {
                const s = (0, node_net_1.createServer)();
                s.once('error', reject);
                s.listen(port, '127.0.0.1', () => resolve(s));
            }));
        }
        return true;
    }
    catch {
        return false;
    }
    finally {
        await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    }
}
/**
 * The ports a service had last time when they are all still free (a restarted service
 * comes back where running clients and workers look for it), fresh ones otherwise.
 */
async function reusePortsOrFresh(names, previous) {
    const old = names.map((n) => previous?.[n]);
    if (old.every((p) => typeof p === 'number' && p > 0) && (await portsFree(old)))
        return Object.fromEntries(names.map((n, i) => [n, old[i]]));
    const fresh = await freePorts(names.length);
    return Object.fromEntries(names.map((n, i) => [n, fresh[i]]));
}
/** Polls `check` until it resolves true, or throws with the log tail after the timeout. */
async function waitUntil(what, check, timeoutMs, pid) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
        if (pid !== undefined && !isAlive(pid))
            throw new Error(`${what} exited during start-up`);
        try {
            if (await check())
                return;
        }
        catch {
            /* not ready yet */
        }
        await sleep(250);
    }
    throw new Error(`${what} was not healthy within ${Math.round(timeoutMs / 1000)} s`);
}
//# sourceMappingURL=process.js.map