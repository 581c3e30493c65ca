"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runMainWorker = runMainWorker;
const config_1 = require("../client/config");
const reachability_1 = require("../client/reachability");
const worker_1 = require("./worker");
/** `evolution worker`: runs the main worker until SIGINT/SIGTERM, then drains and exits. */
async function runMainWorker() {
    const config = (0, config_1.loadConfig)();
    await (0, reachability_1.ensureReachable)(config, ['temporal', 's3', 'model']);
    const { worker, connection } = await (0, worker_1.createMainWorker)({ config, identity: `evolution-worker@${process.pid}` });
    console.error(`[worker] polling task queue "${config.temporal.taskQueue}" on ${config.temporal.address} (namespace ${config.temporal.namespace})`);
    try {
        await worker.run(); // the SDK installs SIGINT/SIGTERM handlers that shut the worker down gracefully
    }
    finally {
        await connection.close();
    }
}
if (require.main === module) {
    runMainWorker().then(() => process.exit(0), (e) => {
        console.error(`[worker] ${e.message}`);
        process.exit(1);
    });
}
//# sourceMappingURL=main.js.map