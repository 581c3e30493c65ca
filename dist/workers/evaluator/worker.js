"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createEvaluatorWorker = createEvaluatorWorker;
const node_os_1 = require("node:os");
const worker_1 = require("@temporalio/worker");
const weather_evaluator_1 = require("./weather-evaluator");
const connection_1 = require("../connection");
const product_metrics_1 = require("../telemetry/product-metrics");
const tracing_1 = require("../telemetry/tracing");
const data_converter_1 = require("../../client/codec/data-converter");
/**
 * An application's evaluator worker: activities only, on the evaluator task queue, so
 * evaluation scales by running more of these (any host, any Temporal SDK).
 */
async function createEvaluatorWorker(opts) {
    const { config } = opts;
    const taskQueue = opts.taskQueue ?? config.temporal.evaluatorTaskQueue;
    const identity = opts.identity ?? `weather-evaluator@${(0, node_os_1.hostname)()}:${process.pid}`;
    const connection = opts.connection ?? (await (0, connection_1.connectWorkerTemporal)(config));
    const worker = await worker_1.Worker.create({
        connection,
        namespace: config.temporal.namespace,
        taskQueue,
        identity,
        activities: (0, weather_evaluator_1.weatherEvaluatorActivities)({ ...opts.evaluator, identity }),
        dataConverter: (0, data_converter_1.evolutionDataConverter)(config),
        interceptors: { activity: [product_metrics_1.productMetricsInterceptor, ...(opts.tracing ? [(0, tracing_1.workerTracing)(opts.tracing).activity] : [])] },
        shutdownGraceTime: '20 seconds',
        maxConcurrentActivityTaskExecutions: opts.maxConcurrent ?? 4,
        // Heartbeats reach the server within a second, so cancellations do too.
        defaultHeartbeatThrottleInterval: '1 second',
        maxHeartbeatThrottleInterval: '1 second',
    });
    return { worker, connection, taskQueue, identity };
}
//# sourceMappingURL=worker.js.map