import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, Runtime, DefaultLogger, type Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { createSkillStore, type SkillStore } from '../storage';
import type { EvolutionConfig } from '../core';
import { createMainWorker, defaultWorkflowBundle, PAYLOAD_CONVERTER_PATH, WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from './worker';
import { randomUUID } from 'node:crypto';
import { connectWorkerTemporal } from './connection';
import { clientConnectionOptions } from '../runtime/temporal-profile';
import { evolutionDataConverter } from '../codec/data-converter';
import { clientInterceptors } from '../runtime/tracing/client-interceptors';

let bundle: Promise<WorkflowBundleOption> | undefined;
let runtimeInstalled = false;

/**
 * The workflow bundle: the one `npm run build` prebuilt when it is current (`npm test` and
 * `npm run demo` build first, so every test file shares it), else bundled once per process.
 */
export function workflowBundle(): Promise<WorkflowBundleOption> {
  quietRuntime();
  const prebuilt = defaultWorkflowBundle();
  if (prebuilt) return Promise.resolve(prebuilt);
  return (bundle ??= bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    payloadConverterPath: PAYLOAD_CONVERTER_PATH,
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: new DefaultLogger('WARN'),
  }));
}

/** Worker logs at WARN: the demo and tests print what matters, not every state change. */
export function quietRuntime(): void {
  if (!runtimeInstalled) {
    runtimeInstalled = true;
    try {
      Runtime.install({ logger: new DefaultLogger('WARN') });
    } catch {
      /* already installed by another helper in this process */
    }
  }
}

export interface RunningWorker {
  client: Client;
  /** The worker's S3 store, for reads beside it (waitForLearningJob waits for the scope index through it). */
  store: SkillStore;
  taskQueue: string;
  config: EvolutionConfig;
  worker: Worker;
  stop(): Promise<void>;
}

/**
 * The main worker inside this process (real activities: S3, openai), on a task queue of
 * its own, plus a client for it. Used by the demo and the tests; production runs
 * `evolution worker` instead.
 */
export async function startMainWorker(config: EvolutionConfig, opts: { taskQueue?: string } = {}): Promise<RunningWorker> {
  const taskQueue = opts.taskQueue ?? `tq-${randomUUID().slice(0, 8)}`;
  const cfg: EvolutionConfig = { ...config, temporal: { ...config.temporal, taskQueue } };
  quietRuntime();
  const nativeConnection = await connectWorkerTemporal(cfg);
  const { worker, close } = await createMainWorker({ config: cfg, connection: nativeConnection, workflowBundle: await workflowBundle(), taskQueue });
  const running = worker.run();
  const connection = await Connection.connect(clientConnectionOptions(cfg));
  const client = new Client({ connection, namespace: cfg.temporal.namespace, dataConverter: evolutionDataConverter(cfg), interceptors: clientInterceptors() });
  return {
    client,
    store: createSkillStore(cfg.s3),
    taskQueue,
    config: cfg,
    worker,
    async stop() {
      // Ctrl-C already started the shutdown (the Temporal runtime handles SIGINT itself).
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await close();
      await nativeConnection.close();
      await connection.close();
    },
  };
}
