"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PAYLOAD_CONVERTER_PATH = exports.WORKFLOWS_PATH = void 0;
exports.defaultWorkflowBundle = defaultWorkflowBundle;
exports.createMainWorker = createMainWorker;
const node_path_1 = require("node:path");
const build_state_1 = require("../scripts/build-state");
const worker_1 = require("@temporalio/worker");
const activities_1 = require("../activities");
const connection_1 = require("./connection");
const product_metrics_1 = require("./telemetry/product-metrics");
const tracing_1 = require("./telemetry/tracing");
const data_converter_1 = require("../client/codec/data-converter");
/** Path of the workflow entry module, for bundling (the same from the sources and from dist/). */
exports.WORKFLOWS_PATH = (0, node_path_1.join)(build_state_1.ROOT, 'workflows', 'index.ts');
/**
 * The workflow code a worker loads: the bundle `npm run build` prebuilt when it is current
 * (loading it takes milliseconds; webpack takes seconds), else the sources bundled now.
 */
function defaultWorkflowBundle() {
    return (0, build_state_1.buildStatus)() === 'fresh' ? { codePath: build_state_1.WORKFLOW_BUNDLE } : undefined;
}
/** Path of the payload converter module: bundled with the workflows, and used by activities. */
exports.PAYLOAD_CONVERTER_PATH = (0, node_path_1.join)(build_state_1.ROOT, 'workers', 'payload-converter.ts');
/**
 * The main worker: every workflow (session, learning job, approval, rollback, GEPA
 * experiment) and every application activity, on the main task queue.
 */
async function createMainWorker(opts) {
    const { config } = opts;
    const connection = opts.connection ?? (await (0, connection_1.connectWorkerTemporal)(config));
    const traced = opts.tracing && (0, tracing_1.workerTracing)(opts.tracing);
    const worker = await worker_1.Worker.create({
        connection,
        namespace: config.temporal.namespace,
        taskQueue: opts.taskQueue ?? config.temporal.taskQueue,
        ...(opts.identity ? { identity: opts.identity } : {}),
        workflowBundle: await workflowsFor(opts.workflowBundle, !!traced),
        activities: (0, activities_1.createActivities)(config),
        // Activities keep the default payload converter: only workflow code decodes evaluator answers.
        dataConverter: (0, data_converter_1.evolutionDataConverter)(config),
        interceptors: {
            activity: [product_metrics_1.productMetricsInterceptor, ...(traced ? [traced.activity] : [])],
        },
        ...(traced ? { sinks: traced.sinks } : {}),
        // On SIGTERM, in-flight activities get this long to finish before they are cancelled.
        shutdownGraceTime: '20 seconds',
        // Durable waits (approvals) must not pin cache slots forever (EVOLUTION_WORKER_CACHE_SIZE).
        maxCachedWorkflows: config.runtime.maxCachedWorkflows,
    });
    return { worker, connection };
}
/**
 * The workflow code: the caller's bundle, else the prebuilt one when current, else the
 * sources bundled now. Every bundle carries the payload converter; a traced worker's also
 * carries the tracing interceptors, so it bundles at start.
 */
async function workflowsFor(given, traced) {
    if (given)
        return given;
    const prebuilt = traced ? undefined : defaultWorkflowBundle();
    if (prebuilt)
        return prebuilt;
    const { code } = await (0, worker_1.bundleWorkflowCode)({
        workflowsPath: exports.WORKFLOWS_PATH,
        payloadConverterPath: exports.PAYLOAD_CONVERTER_PATH,
        workflowInterceptorModules: traced ? [tracing_1.TRACING_WORKFLOW_INTERCEPTORS] : [],
        logger: new worker_1.DefaultLogger('WARN'),
    });
    return { code };
}
//# sourceMappingURL=worker.js.map