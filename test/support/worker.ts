import { afterAll, beforeAll } from 'vitest';
import { createSkillStore, type SkillStore } from '../../storage';
import type { EvolutionConfig } from '../../core';
import { startMainWorker, type RunningWorker } from '../../workers/in-process';
import { freshBucket, realServices } from './infra';

export { quietRuntime, startMainWorker, workflowBundle, type RunningWorker } from '../../workers/in-process';

export interface MainWorkerFixture {
  w: RunningWorker;
  store: SkillStore;
  config: EvolutionConfig;
}

/**
 * For a test file: the real main worker with these governance settings (on top of the
 * defaults: no approval timeout, no shadow mode), and an S3 store; filled in beforeAll.
 * `ownBucket`: everything goes to a new, empty bucket of its own.
 */
export function useMainWorker(governance: Partial<EvolutionConfig['governance']> = {}, opts: { ownBucket?: boolean } = {}): MainWorkerFixture {
  const fx = {} as MainWorkerFixture;
  beforeAll(async () => {
    const services = await realServices();
    const base = opts.ownBucket ? await freshBucket(services, 'bucket') : services;
    fx.config = { ...base, governance: { ...base.governance, approvalTimeoutMs: undefined, shadowMode: false, ...governance } };
    fx.w = await startMainWorker(fx.config);
    fx.config = fx.w.config;
    fx.store = createSkillStore(fx.config.s3);
  });
  afterAll(async () => fx.w?.stop());
  return fx;
}
