import { join } from 'node:path';
import { NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import type { EvolutionConfig } from '../core';
import { createActivities } from '../activities';
import { connectWorkerTemporal } from './connection';
import { productMetricsInterceptor } from './telemetry/product-metrics';
import { TRACING_WORKFLOW_INTERCEPTORS, workerTracing, type Tracing } from './telemetry/tracing';
import { evolutionDataConverter } from '../client/codec/data-converter';

export interface MainWorkerOptions {
  config: EvolutionConfig;
  /** A prebuilt workflow bundle (tests build it once); default: bundle `workflows/` at start. */
  workflowBundle?: WorkflowBundleOption;
  taskQueue?: string;
  connection?: NativeConnection;
  identity?: string;
  /** Tracing (workers/telemetry/tracing.ts); a prebuilt bundle must include TRACING_WORKFLOW_INTERCEPTORS. */
  tracing?: Tracing;
}

/** Path of the workflow entry module, for bundling. */
export const WORKFLOWS_PATH = join(__dirname, '..', 'workflows', 'index.ts');
/** Path of the payload converter module (bundled with the workflows, too). */
export const PAYLOAD_CONVERTER_PATH = join(__dirname, 'payload-converter.ts');

/**
 * The main worker: every workflow (session, learning job, approval, rollback, GEPA
 * experiment) and every application activity, on the main task queue.
 */
export async function createMainWorker(opts: MainWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const { config } = opts;
  const connection = opts.connection ?? (await connectWorkerTemporal(config));
  const traced = opts.tracing && workerTracing(opts.tracing);
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: opts.taskQueue ?? config.temporal.taskQueue,
    ...(opts.identity ? { identity: opts.identity } : {}),
    // A prebuilt bundle carries the payload converter (workflowBundle() in in-process.ts);
    // otherwise the worker bundles it (activities keep the default: they never decode evaluator answers).
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities(config),
    dataConverter: { ...evolutionDataConverter(config), ...(opts.workflowBundle ? {} : { payloadConverterPath: PAYLOAD_CONVERTER_PATH }) },
    interceptors: {
      activity: [productMetricsInterceptor, ...(traced ? [traced.activity] : [])],
      ...(traced ? { workflowModules: [TRACING_WORKFLOW_INTERCEPTORS] } : {}),
    },
    ...(traced ? { sinks: traced.sinks } : {}),
    // On SIGTERM, in-flight activities get this long to finish before they are cancelled.
    shutdownGraceTime: '20 seconds',
    // Durable waits (approvals) must not pin cache slots forever (EVOLUTION_WORKER_CACHE_SIZE).
    maxCachedWorkflows: config.runtime.maxCachedWorkflows,
  });
  return { worker, connection };
}
