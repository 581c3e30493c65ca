"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * `npm test`: brings up the real local services (Temporal dev server, SeaweedFS S3,
 * local model server; the time-skipping test server binary is installed for the
 * workflow tests) and the build (dist/, whose prebuilt workflow bundle every test file
 * shares), then runs the whole vitest suite against them.
 * Extra arguments go to vitest, e.g. `npm test -- test/unit`: when every path given is
 * under test/unit, nothing is started (unit tests are pure).
 */
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const infra_1 = require("../infra");
const paths_1 = require("../infra/paths");
const build_state_1 = require("./build-state");
const test_selection_1 = require("./test-selection");
async function main() {
    const started = Date.now();
    const vitestArgs = process.argv.slice(2);
    let env = {};
    if (!(0, test_selection_1.unitTestsOnly)(vitestArgs)) {
        const state = await (0, infra_1.infraUp)({ log: (l) => console.error(`[infra] ${l}`) });
        console.error(`[infra] ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        if (!(0, build_state_1.ensureBuild)((l) => console.error(l)))
            console.error('[build] no current build: each test file bundles the workflows itself (slower)');
        env = (0, infra_1.infraEnv)(state);
    }
    (0, node_fs_1.mkdirSync)((0, paths_1.stateDir)(), { recursive: true });
    const resultsFile = (0, node_path_1.join)((0, paths_1.stateDir)(), 'test-results.json');
    const vitest = (0, node_path_1.join)(paths_1.REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const args = [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`, ...vitestArgs];
    const result = (0, node_child_process_1.spawnSync)(process.execPath, args, { cwd: paths_1.REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    if ((0, node_fs_1.existsSync)(resultsFile)) {
        const r = JSON.parse((0, node_fs_1.readFileSync)(resultsFile, 'utf8'));
        // The plain closing line CI reads.
        console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
    }
    return result.status ?? 1;
}
main().then((code) => process.exit(code), (e) => {
    console.error(`npm test: ${e.stack ?? e}`);
    process.exit(1);
});
//# sourceMappingURL=run-tests.js.map