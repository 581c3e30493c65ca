import { join } from 'node:path';
import { buildStatus, ROOT, WORKFLOW_BUNDLE } from '../scripts/build-state';
import { NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import type { EvolutionConfig } from '../core';
import { createActivities } from '../activities';
import { connectWorkerTemporal } from './connection';
import { productMetricsInterceptor } from './telemetry/product-metrics';
import { TRACING_WORKFLOW_INTERCEPTORS, workerTracing, type Tracing } from './telemetry/tracing';
import { evolutionDataConverter } from '../client/codec/data-converter';

export interface MainWorkerOptions {
  config: EvolutionConfig;
  /** A workflow bundle; default: the prebuilt dist/workflow-bundle.js when current, else bundle `workflows/` at start. */
  workflowBundle?: WorkflowBundleOption;
  taskQueue?: string;
  connection?: NativeConnection;
  identity?: string;
  /** Tracing (workers/telemetry/tracing.ts); a prebuilt bundle must include TRACING_WORKFLOW_INTERCEPTORS. */
  tracing?: Tracing;
}

/** Path of the workflow entry module, for bundling (the same from the sources and from dist/). */
export const WORKFLOWS_PATH = join(ROOT, 'workflows', 'index.ts');

/**
 * The workflow code a worker loads: the bundle `npm run build` prebuilt when it is current
 * (loading it takes milliseconds; webpack takes seconds), else the sources bundled now.
 */
export function defaultWorkflowBundle(): WorkflowBundleOption | undefined {
  return buildStatus() === 'fresh' ? { codePath: WORKFLOW_BUNDLE } : undefined;
}

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
    ...withWorkflows(opts.workflowBundle ?? defaultWorkflowBundle()),
    activities: createActivities(config),
    dataConverter: evolutionDataConverter(config),
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

function withWorkflows(bundle: WorkflowBundleOption | undefined): { workflowBundle: WorkflowBundleOption } | { workflowsPath: string } {
  return bundle ? { workflowBundle: bundle } : { workflowsPath: WORKFLOWS_PATH };
}
