"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * `npm run build`: the application compiled to CommonJS in dist/ (tsconfig.build.json)
 * and the workflow bundle prebuilt once (dist/workflow-bundle.js), so the CLI starts
 * without compiling TypeScript and the worker without running webpack. bin/evolution.js,
 * `npm test` and `npm run demo` call this themselves when dist/ is missing or stale.
 */
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const worker_1 = require("@temporalio/worker");
const build_state_1 = require("./build-state");
async function main() {
    const started = new Date();
    const t0 = Date.now();
    (0, node_fs_1.mkdirSync)(build_state_1.DIST, { recursive: true });
    const tsc = (0, node_child_process_1.spawnSync)(process.execPath, [(0, node_path_1.join)(build_state_1.ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', (0, node_path_1.join)(build_state_1.ROOT, 'tsconfig.build.json')], { cwd: build_state_1.ROOT, stdio: 'inherit' });
    if (tsc.status !== 0)
        throw new Error(`tsc -p tsconfig.build.json failed (exit ${tsc.status})`);
    // Compiled code that asks whether the build is current needs this plain-JS helper beside it.
    (0, node_fs_1.mkdirSync)((0, node_path_1.join)(build_state_1.DIST, 'scripts'), { recursive: true });
    (0, node_fs_1.copyFileSync)((0, node_path_1.join)(build_state_1.ROOT, 'scripts', 'build-state.js'), (0, node_path_1.join)(build_state_1.DIST, 'scripts', 'build-state.js'));
    const t1 = Date.now();
    const bundle = await (0, worker_1.bundleWorkflowCode)({ workflowsPath: (0, node_path_1.join)(build_state_1.ROOT, 'workflows', 'index.ts'), payloadConverterPath: (0, node_path_1.join)(build_state_1.ROOT, 'workers', 'payload-converter.ts'), logger: new worker_1.DefaultLogger('WARN') });
    const tmp = `${build_state_1.WORKFLOW_BUNDLE}.${process.pid}.tmp`;
    (0, node_fs_1.writeFileSync)(tmp, bundle.code);
    (0, node_fs_1.renameSync)(tmp, build_state_1.WORKFLOW_BUNDLE);
    const t2 = Date.now();
    // The stamp carries the build's start time: a source saved during the build is newer.
    (0, node_fs_1.writeFileSync)(build_state_1.STAMP, `${started.toISOString()}\n`);
    (0, node_fs_1.utimesSync)(build_state_1.STAMP, started, started);
    console.error(`[build] compiled in ${((t1 - t0) / 1000).toFixed(1)} s, workflow bundle in ${((t2 - t1) / 1000).toFixed(1)} s (${(bundle.code.length / 1e6).toFixed(1)} MB)`);
}
main().catch((e) => {
    console.error(`[build] ${e.message}`);
    process.exit(1);
});
//# sourceMappingURL=build.js.map