"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runMainWorker = runMainWorker;
const config_1 = require("../client/config");
const reachability_1 = require("../client/reachability");
const operations_1 = require("./telemetry/operations");
const tracing_1 = require("./telemetry/tracing");
const worker_1 = require("./worker");
/**
 * `evolution worker`: runs the main worker until SIGINT/SIGTERM, then drains (in-flight
 * activities get the shutdown grace time to finish, then are cancelled) and exits 0.
 */
async function runMainWorker() {
    const config = (0, config_1.loadConfig)();
    await (0, reachability_1.ensureReachable)(config, ['temporal', 's3', 'model']);
    const ops = await (0, operations_1.startWorkerOperations)(config);
    const tracing = (0, tracing_1.startTracingFromEnv)(process.env, 'evolution-worker');
    const { worker, connection } = await (0, worker_1.createMainWorker)({ config, identity: `evolution-worker@${process.pid}`, tracing });
    ops.attach(worker);
    const metrics = ops.metricsPort !== undefined ? `; metrics and health on :${ops.metricsPort}` : '';
    console.error(`[worker] polling task queue "${config.temporal.taskQueue}" on ${config.temporal.address} (namespace ${config.temporal.namespace})${metrics}`);
    try {
        await worker.run(); // returns once SIGTERM/SIGINT (see startWorkerOperations) has drained it
    }
    finally {
        await connection.close();
        await ops.close();
        await tracing?.shutdown();
    }
}
if (require.main === module) {
    runMainWorker().then(() => process.exit(0), (e) => {
        console.error(`[worker] ${e.message}`);
        process.exit(1);
    });
}
//# sourceMappingURL=main.js.map