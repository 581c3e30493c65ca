import { join } from 'node:path';
import { buildStatus, ROOT, WORKFLOW_BUNDLE } from '../runtime/build-state';
import { Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import type { EvolutionConfig } from '../core';
import { createActivities } from '../activities';
import { clientIndexUpdater, clientRejectionsSignaller } from '../activities/scope-index-signal';
import { clientScopeRecorder } from '../activities/usage';
import { clientRolloutStarter } from '../activities/rollout-start';
import { connectWorkerTemporal } from './connection';
import { productMetricsInterceptor } from './telemetry/product-metrics';
import type { Tracing } from '../runtime/tracing/otel';
import { TRACING_WORKFLOW_INTERCEPTORS } from '../runtime/tracing/from-env';
import { evolutionDataConverter } from '../codec/data-converter';

export interface MainWorkerOptions {
  config: EvolutionConfig;
  /** A workflow bundle; default: the prebuilt dist/workflow-bundle.js when current, else bundle `workflows/` at start. */
  workflowBundle?: WorkflowBundleOption;
  taskQueue?: string;
  connection?: NativeConnection;
  identity?: string;
  /** Tracing (runtime/tracing/otel.ts); a prebuilt bundle must include TRACING_WORKFLOW_INTERCEPTORS. */
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
 * Workflow interceptor modules every bundle carries: the strict-payload guard (refuses
 * plaintext start inputs, signals and updates when payload keys are set).
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [join(ROOT, 'workflows', 'payload-guard.ts')];

/** Path of the payload converter module: bundled with the workflows, and used by activities. */
export const PAYLOAD_CONVERTER_PATH = join(ROOT, 'workers', 'payload-converter.ts');

/**
 * The main worker: every workflow (session, learning job, approval, rollback, GEPA
 * experiment) and every application activity, on the main task queue.
 */
export async function createMainWorker(opts: MainWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection; close(): Promise<void> }> {
  const { config } = opts;
  // Publishers wait on the index's update answers (up to 30 s each): those calls get a
  // connection of their own (same TLS, API key and payload codec), apart from the
  // worker's polls, completions and heartbeats. Both connect at once.
  const [connection, indexConnection] = await Promise.all([opts.connection ?? connectWorkerTemporal(config), connectWorkerTemporal(config)]);
  const traced = opts.tracing && (await import('../runtime/tracing/otel')).workerTracing(opts.tracing);
  const taskQueue = opts.taskQueue ?? config.temporal.taskQueue;
  const indexClient = new Client({ connection: indexConnection, namespace: config.temporal.namespace, dataConverter: evolutionDataConverter(config) });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue,
    ...(opts.identity ? { identity: opts.identity } : {}),
    workflowBundle: await workflowsFor(opts.workflowBundle, !!traced),
    activities: createActivities(config, {
      signalIndex: clientIndexUpdater(indexClient, taskQueue),
      signalRejections: clientRejectionsSignaller(indexClient, taskQueue),
      recordScope: clientScopeRecorder(indexClient, taskQueue, config.runtime.storageOutageToleranceMs),
      startRollout: clientRolloutStarter(indexClient, taskQueue),
    }),
    // Activities keep the default payload converter: only workflow code decodes evaluator answers.
    dataConverter: evolutionDataConverter(config),
    interceptors: {
      activity: [productMetricsInterceptor, ...(traced ? [traced.activity] : [])],
    },
    ...(traced ? { sinks: traced.sinks } : {}),
    // On SIGTERM, in-flight activities get this long to finish before they are cancelled.
    shutdownGraceTime: '20 seconds',
    // Durable waits (approvals) must not pin cache slots forever (EVOLUTION_WORKER_CACHE_SIZE).
    maxCachedWorkflows: config.runtime.maxCachedWorkflows,
  });
  return {
    worker,
    connection,
    /** Closes the connections this function opened (after the worker has stopped). */
    async close() {
      await indexConnection.close();
      if (!opts.connection) await connection.close();
    },
  };
}

/**
 * The workflow code: the caller's bundle, else the prebuilt one when current, else the
 * sources bundled now. Every bundle carries the payload converter; a traced worker's also
 * carries the tracing interceptors, so it bundles at start.
 */
async function workflowsFor(given: WorkflowBundleOption | undefined, traced: boolean): Promise<WorkflowBundleOption> {
  if (given) return given;
  const prebuilt = traced ? undefined : defaultWorkflowBundle();
  if (prebuilt) return prebuilt;
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    payloadConverterPath: PAYLOAD_CONVERTER_PATH,
    workflowInterceptorModules: [...WORKFLOW_INTERCEPTOR_MODULES, ...(traced ? [TRACING_WORKFLOW_INTERCEPTORS] : [])],
    // The bundler's warnings go through the process's logger (JSON when JSON logs are on).
    logger: new DefaultLogger('WARN', (entry) => Runtime.instance().logger.log(entry.level, entry.message, entry.meta)),
  });
  return { code };
}
