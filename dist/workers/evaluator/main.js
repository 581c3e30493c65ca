"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseScoreOverrides = parseScoreOverrides;
exports.runEvaluatorWorker = runEvaluatorWorker;
const node_fs_1 = require("node:fs");
const config_1 = require("../../client/config");
const operations_1 = require("../telemetry/operations");
const tracing_1 = require("../telemetry/tracing");
const worker_1 = require("./worker");
/** Parses `CASE=SCORE[@REGEX]` (comma-separated list). */
function parseScoreOverrides(text) {
    return text
        .split(',')
        .filter((s) => s.trim() !== '')
        .map((item) => {
        const m = /^([^=]+)=([^@]+)(?:@(.*))?$/.exec(item.trim());
        if (!m || !Number.isFinite(Number(m[2])))
            throw new Error(`--override expects CASE=SCORE[@REGEX], got "${item}"`);
        return { caseId: m[1], score: Number(m[2]), ...(m[3] ? { whenSpecMatches: m[3] } : {}) };
    });
}
/** `evolution evaluator-worker`: the example evaluator until SIGINT/SIGTERM. */
async function runEvaluatorWorker(flags = {}) {
    const config = (0, config_1.loadConfig)();
    const ops = await (0, operations_1.startWorkerOperations)(config);
    const tracing = (0, tracing_1.startTracingFromEnv)(process.env, 'evolution-evaluator');
    const windowsFile = flags.windowsFile;
    const { worker, connection, taskQueue, identity } = await (0, worker_1.createEvaluatorWorker)({
        config,
        taskQueue: flags.taskQueue,
        identity: flags.identity,
        maxConcurrent: flags.maxConcurrent,
        tracing,
        evaluator: {
            delayMs: flags.delayMs,
            caseDelayMs: flags.caseDelayMs,
            scoreOverrides: flags.scoreOverrides,
            onWindow: windowsFile ? (w) => (0, node_fs_1.appendFileSync)(windowsFile, `${JSON.stringify(w)}\n`) : undefined,
        },
    });
    ops.attach(worker);
    const metrics = ops.metricsPort !== undefined ? `; metrics and health on :${ops.metricsPort}` : '';
    console.error(`[evaluator] ${identity} polling task queue "${taskQueue}" on ${config.temporal.address}${metrics}`);
    try {
        await worker.run(); // returns once SIGTERM/SIGINT (see startWorkerOperations) has drained it
    }
    finally {
        await connection.close();
        await ops.close();
        await tracing?.shutdown();
    }
}
//# sourceMappingURL=main.js.map