"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.workflowBundle = workflowBundle;
exports.quietRuntime = quietRuntime;
exports.startMainWorker = startMainWorker;
const client_1 = require("@temporalio/client");
const worker_1 = require("@temporalio/worker");
const worker_2 = require("./worker");
const node_crypto_1 = require("node:crypto");
const connection_1 = require("./connection");
const connection_2 = require("../client/connection");
const data_converter_1 = require("../client/codec/data-converter");
const tracing_1 = require("../client/tracing");
let bundle;
let runtimeInstalled = false;
/**
 * The workflow bundle: the one `npm run build` prebuilt when it is current (`npm test` and
 * `npm run demo` build first, so every test file shares it), else bundled once per process.
 */
function workflowBundle() {
    quietRuntime();
    const prebuilt = (0, worker_2.defaultWorkflowBundle)();
    if (prebuilt)
        return Promise.resolve(prebuilt);
    return (bundle ??= (0, worker_1.bundleWorkflowCode)({ workflowsPath: worker_2.WORKFLOWS_PATH, payloadConverterPath: worker_2.PAYLOAD_CONVERTER_PATH, logger: new worker_1.DefaultLogger('WARN') }));
}
/** Worker logs at WARN: the demo and tests print what matters, not every state change. */
function quietRuntime() {
    if (!runtimeInstalled) {
        runtimeInstalled = true;
        try {
            worker_1.Runtime.install({ logger: new worker_1.DefaultLogger('WARN') });
        }
        catch {
            /* already installed by another helper in this process */
        }
    }
}
/**
 * The main worker inside this process (real activities: S3, openai), on a task queue of
 * its own, plus a client for it. Used by the demo and the tests; production runs
 * `evolution worker` instead.
 */
async function startMainWorker(config, opts = {}) {
    const taskQueue = opts.taskQueue ?? `tq-${(0, node_crypto_1.randomUUID)().slice(0, 8)}`;
    const cfg = { ...config, temporal: { ...config.temporal, taskQueue } };
    quietRuntime();
    const nativeConnection = await (0, connection_1.connectWorkerTemporal)(cfg);
    const { worker } = await (0, worker_2.createMainWorker)({ config: cfg, connection: nativeConnection, workflowBundle: await workflowBundle(), taskQueue });
    const running = worker.run();
    const connection = await client_1.Connection.connect((0, connection_2.temporalConnectionOptions)(cfg));
    const client = new client_1.Client({ connection, namespace: cfg.temporal.namespace, dataConverter: (0, data_converter_1.evolutionDataConverter)(cfg), interceptors: (0, tracing_1.clientInterceptors)() });
    return {
        client,
        taskQueue,
        config: cfg,
        worker,
        async stop() {
            // Ctrl-C already started the shutdown (the Temporal runtime handles SIGINT itself).
            if (worker.getState() === 'RUNNING')
                worker.shutdown();
            await running;
            await nativeConnection.close();
            await connection.close();
        },
    };
}
//# sourceMappingURL=in-process.js.map