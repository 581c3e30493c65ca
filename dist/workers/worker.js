"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WORKFLOWS_PATH = void 0;
exports.defaultWorkflowBundle = defaultWorkflowBundle;
exports.createMainWorker = createMainWorker;
const node_path_1 = require("node:path");
const build_state_1 = require("../scripts/build-state");
const worker_1 = require("@temporalio/worker");
const activities_1 = require("../activities");
/** Path of the workflow entry module, for bundling (the same from the sources and from dist/). */
exports.WORKFLOWS_PATH = (0, node_path_1.join)(build_state_1.ROOT, 'workflows', 'index.ts');
/**
 * The workflow code a worker loads: the bundle `npm run build` prebuilt when it is current
 * (loading it takes milliseconds; webpack takes seconds), else the sources bundled now.
 */
function defaultWorkflowBundle() {
    return (0, build_state_1.buildStatus)() === 'fresh' ? { codePath: build_state_1.WORKFLOW_BUNDLE } : undefined;
}
/**
 * The main worker: every workflow (session, learning job, approval, rollback, GEPA
 * experiment) and every application activity, on the main task queue.
 */
async function createMainWorker(opts) {
    const { config } = opts;
    const connection = opts.connection ?? (await worker_1.NativeConnection.connect({ address: config.temporal.address }));
    const worker = await worker_1.Worker.create({
        connection,
        namespace: config.temporal.namespace,
        taskQueue: opts.taskQueue ?? config.temporal.taskQueue,
        ...(opts.identity ? { identity: opts.identity } : {}),
        ...withWorkflows(opts.workflowBundle ?? defaultWorkflowBundle()),
        activities: (0, activities_1.createActivities)(config),
        // Durable waits (approvals) must not pin cache slots forever (EVOLUTION_WORKER_CACHE_SIZE).
        maxCachedWorkflows: config.runtime.maxCachedWorkflows,
    });
    return { worker, connection };
}
function withWorkflows(bundle) {
    return bundle ? { workflowBundle: bundle } : { workflowsPath: exports.WORKFLOWS_PATH };
}
//# sourceMappingURL=worker.js.map