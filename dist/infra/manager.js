"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.infraUp = infraUp;
exports.infraDown = infraDown;
exports.infraStatus = infraStatus;
const binaries_1 = require("./binaries");
const lock_1 = require("./lock");
const node_path_1 = require("node:path");
const paths_1 = require("./paths");
const process_1 = require("./process");
const services_1 = require("./services");
const state_1 = require("./state");
const node_fs_1 = require("node:fs");
async function isHealthy(s) {
    if (!s || !(0, process_1.isAlive)(s.pid))
        return false;
    try {
        return await services_1.SERVICES[s.name].healthy(s);
    }
    catch {
        return false;
    }
}
/**
 * Brings every local service up, reusing the ones already running and healthy.
 * Idempotent and safe to run from several processes at once (a lock serializes them).
 */
async function infraUp(opts = {}) {
    const log = opts.log ?? (() => { });
    const wanted = opts.only ?? services_1.SERVICE_ORDER;
    // Test server: installed only (the testing library starts it itself).
    (0, binaries_1.ensureBinary)('temporal-test-server', log);
    return (0, lock_1.withDirLockAsync)((0, node_path_1.join)((0, paths_1.stateDir)(), 'infra.lock'), async () => {
        const state = (0, state_1.readState)();
        await Promise.all(wanted.map(async (name) => {
            const current = state.services[name];
            if (await isHealthy(current))
                return;
            if (current && (0, process_1.isAlive)(current.pid))
                await (0, process_1.stopProcessGroup)(current.pid);
            const started = Date.now();
            // Same ports (and the same data directory) as before, so clients and workers that
            // are still running reconnect by themselves instead of retrying a dead port.
            const previousPorts = current?.ports ?? state.lastPorts?.[name];
            try {
                state.services[name] = await services_1.SERVICES[name].start(log, previousPorts);
            }
            catch (e) {
                const tail = current?.logFile ? (0, services_1.logTail)(current.logFile) : '';
                throw new Error(`${e.message}${tail ? `\n--- log tail ---\n${tail}` : ''}`);
            }
            log(`${name} up at ${state.services[name].endpoint} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        }));
        (0, state_1.writeState)(state);
        return state;
    });
}
async function infraDown(opts = {}) {
    const state = (0, state_1.readState)();
    for (const name of [...(opts.only ?? services_1.SERVICE_ORDER)].reverse()) {
        const s = state.services[name];
        if (s && (0, process_1.isAlive)(s.pid))
            await (0, process_1.stopProcessGroup)(s.pid);
        if (s)
            (state.lastPorts ??= {})[name] = s.ports;
        delete state.services[name];
    }
    (0, state_1.writeState)(state);
}
async function infraStatus() {
    const state = (0, state_1.readState)();
    const services = await Promise.all(services_1.SERVICE_ORDER.map(async (name) => {
        const s = state.services[name];
        return { name, running: (0, process_1.isAlive)(s?.pid), healthy: await isHealthy(s), pid: s?.pid, endpoint: s?.endpoint, logFile: s?.logFile, extra: s?.extra };
    }));
    const binaries = Object.fromEntries(Object.entries(binaries_1.PINNED_BINARIES).map(([name, b]) => {
        const path = (0, binaries_1.binaryPath)(name);
        return [name, { path, installed: (0, node_fs_1.existsSync)(path), version: `${b.pypi}==${b.version}` }];
    }));
    return { services, binaries };
}
//# sourceMappingURL=manager.js.map