import { join } from 'node:path';
import { NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import type { EvolutionConfig } from '../core';
import { createActivities } from '../activities';

export interface MainWorkerOptions {
  config: EvolutionConfig;
  /** A prebuilt workflow bundle (tests build it once); default: bundle `workflows/` at start. */
  workflowBundle?: WorkflowBundleOption;
  taskQueue?: string;
  connection?: NativeConnection;
  identity?: string;
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
  const connection = opts.connection ?? (await NativeConnection.connect({ address: config.temporal.address }));
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: opts.taskQueue ?? config.temporal.taskQueue,
    ...(opts.identity ? { identity: opts.identity } : {}),
    // A prebuilt bundle carries the payload converter (workflowBundle() in in-process.ts);
    // otherwise the worker bundles it (activities keep the default: they never decode evaluator answers).
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: WORKFLOWS_PATH, dataConverter: { payloadConverterPath: PAYLOAD_CONVERTER_PATH } }),
    activities: createActivities(config),
    // Durable waits (approvals) must not pin cache slots forever (EVOLUTION_WORKER_CACHE_SIZE).
    maxCachedWorkflows: config.runtime.maxCachedWorkflows,
  });
  return { worker, connection };
}
