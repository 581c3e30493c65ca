import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Runtime, DefaultLogger, type Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll } from 'vitest';
import { createSkillStore, type SkillStore } from '../../activities/storage';
import type { EvolutionConfig } from '../../core';
import { createMainWorker, WORKFLOWS_PATH } from '../../workers/worker';
import { realServices, uniqueName } from './infra';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
let runtimeInstalled = false;

/** The workflow bundle, built once per test process (bundling takes seconds). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  quietRuntime();
  return (bundle ??= bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') }));
}

/** Worker logs at WARN: tests print what they assert, not every state change. */
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
  taskQueue: string;
  config: EvolutionConfig;
  worker: Worker;
  stop(): Promise<void>;
}

/**
 * The real main worker (real activities: S3, openai → local model server) on a task
 * queue of its own, against the real Temporal dev server, plus a client for it.
 */
export async function startMainWorker(config: EvolutionConfig, opts: { taskQueue?: string } = {}): Promise<RunningWorker> {
  const taskQueue = opts.taskQueue ?? uniqueName('tq');
  const cfg: EvolutionConfig = { ...config, temporal: { ...config.temporal, taskQueue } };
  quietRuntime();
  const nativeConnection = await NativeConnection.connect({ address: cfg.temporal.address });
  const { worker } = await createMainWorker({ config: cfg, connection: nativeConnection, workflowBundle: await workflowBundle(), taskQueue });
  const running = worker.run();
  const connection = await Connection.connect({ address: cfg.temporal.address });
  const client = new Client({ connection, namespace: cfg.temporal.namespace });
  return {
    client,
    taskQueue,
    config: cfg,
    worker,
    async stop() {
      worker.shutdown();
      await running;
      await nativeConnection.close();
      await connection.close();
    },
  };
}

export interface MainWorkerFixture {
  w: RunningWorker;
  store: SkillStore;
  config: EvolutionConfig;
}

/**
 * For a test file: the real main worker with these governance settings (on top of the
 * defaults: no approval timeout, no shadow mode), and an S3 store; filled in beforeAll.
 */
export function useMainWorker(governance: Partial<EvolutionConfig['governance']> = {}): MainWorkerFixture {
  const fx = {} as MainWorkerFixture;
  beforeAll(async () => {
    const base = await realServices();
    fx.config = { ...base, governance: { ...base.governance, approvalTimeoutMs: undefined, shadowMode: false, ...governance } };
    fx.w = await startMainWorker(fx.config);
    fx.config = fx.w.config;
    fx.store = createSkillStore(fx.config.s3);
  });
  afterAll(async () => fx.w?.stop());
  return fx;
}
