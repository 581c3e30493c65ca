import { hostname } from 'node:os';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { EvolutionConfig } from '../../core';
import { weatherEvaluatorActivities, type WeatherEvaluatorOptions } from './weather-evaluator';
import { connectWorkerTemporal } from '../connection';
import { productMetricsInterceptor } from '../telemetry/product-metrics';
import type { Tracing } from '../../runtime/tracing/otel';
import { evolutionDataConverter } from '../../codec/data-converter';

export interface EvaluatorWorkerOptions {
  config: EvolutionConfig;
  /** Default: the configured evaluator task queue (EVOLUTION_EVALUATOR_TASK_QUEUE). */
  taskQueue?: string;
  identity?: string;
  connection?: NativeConnection;
  /** Evaluate calls this worker runs at once (default 4). */
  maxConcurrent?: number;
  evaluator?: Omit<WeatherEvaluatorOptions, 'identity'>;
  tracing?: Tracing;
}

export interface EvaluatorWorker {
  worker: Worker;
  connection: NativeConnection;
  taskQueue: string;
  identity: string;
}

/**
 * An application's evaluator worker: activities only, on the evaluator task queue, so
 * evaluation scales by running more of these (any host, any Temporal SDK).
 */
export async function createEvaluatorWorker(opts: EvaluatorWorkerOptions): Promise<EvaluatorWorker> {
  const { config } = opts;
  const taskQueue = opts.taskQueue ?? config.temporal.evaluatorTaskQueue;
  const identity = opts.identity ?? `weather-evaluator@${hostname()}:${process.pid}`;
  const connection = opts.connection ?? (await connectWorkerTemporal(config));
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue,
    identity,
    activities: weatherEvaluatorActivities({ ...opts.evaluator, identity }),
    dataConverter: evolutionDataConverter(config),
    interceptors: { activity: [productMetricsInterceptor, ...(opts.tracing ? [(await import('../../runtime/tracing/otel')).workerTracing(opts.tracing).activity] : [])] },
    shutdownGraceTime: '20 seconds',
    maxConcurrentActivityTaskExecutions: opts.maxConcurrent ?? 4,
    // Heartbeats reach the server within a second, so cancellations do too.
    defaultHeartbeatThrottleInterval: '1 second',
    maxHeartbeatThrottleInterval: '1 second',
  });
  return { worker, connection, taskQueue, identity };
}
