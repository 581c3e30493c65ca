import type { ConnectionPlugin } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { clientIndexSignaller, clientRejectionsSignaller } from '../../activities/scope-index-signal';
import { clientScopeRecorder } from '../../activities/usage';
import { clientRolloutStarter } from '../../activities/rollout-start';
import { createSkillStore, type SkillStore } from '../../storage';
import { scopeKey as scopeKeyOf, skillIdForName, type EvolutionConfig, type Revision, type SkillSpec } from '../../core';
import { buildGovernedRevision, type GovernanceSettings, type RevisionRef } from '../../core/governance';
import { revisionIdFor } from '../../core/learning';
import { ensureBinary } from '../../infra/binaries';
import { SEARCH_ATTRIBUTES } from '../../infra/services';
import { realServices, uniqueName } from './infra';
import { quietRuntime, workflowBundle } from './worker';

/**
 * The Temporal time-skipping test server (the installed binary, never a download) with
 * the REAL main workflows and activities (S3 and the local model server are real).
 */
/** temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD (every attribute in SEARCH_ATTRIBUTES is a Keyword). */
const INDEXED_VALUE_TYPE_KEYWORD = 2;

export interface TimeSkippingHarness {
  env: TestWorkflowEnvironment;
  worker: Worker;
  taskQueue: string;
  config: EvolutionConfig;
  store: SkillStore;
  /** Runs `fn` while the worker polls; the worker keeps running for later calls. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Shuts the worker down (as a deployment stops it) and starts a new one on the same task queue: workflows resume from history. */
  restartWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The client connection (env.connection, under env.client) sends no keepalive pings.
 * @temporalio/client pings every 30 s, with or without calls; the Java test server keeps
 * grpc-java's server defaults (a ping at most every 5 minutes while calls are open, none
 * without calls, 2 strikes), so the third ping it gets without having sent anything since
 * (any call waiting 60-90 s: a result, an update, a sleep, or an idle client) is answered
 * with GOAWAY too_many_pings ("rejected by server because of excess pings") and the
 * connection is dropped. The calls in flight fail with RESOURCE_EXHAUSTED and the client's
 * retry sends them again: harmless for reads, but env.sleep (unlockTimeSkippingWithSleep)
 * then unlocks time skipping a second time while the first call still waits on the server,
 * taking away the lock the server holds for a running activity or workflow task: it skips
 * time it must not (timers fire early, activities time out), and tests hang or fail. A loopback
 * connection to a test server has nothing for keepalive to detect.
 * (The worker's native connection pings too, and its keepalive is not configurable from
 * TypeScript, but it pings only after 30 s without a frame from the server, and this server
 * answers its task polls every 60 s: at most one ping between answers, never dropped.)
 */
const NO_KEEPALIVE: ConnectionPlugin = {
  name: 'time-skipping-no-keepalive',
  configureConnection: (options) => ({
    ...options,
    channelArgs: { ...options.channelArgs, 'grpc.keepalive_time_ms': -1, 'grpc.keepalive_permit_without_calls': 0 },
  }),
};

/** The time-skipping test server (the installed binary) and the connections to it that every harness uses. */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  quietRuntime();
  const path = process.env.TEMPORAL_TEST_SERVER_PATH ?? ensureBinary('temporal-test-server');
  return TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } }, plugins: [NO_KEEPALIVE] });
}

/** restartable: workers keep no workflow cache, so `restartWorker` hands every workflow to the new worker. */
export async function startTimeSkipping(adjust: (c: EvolutionConfig) => EvolutionConfig = (c) => c, opts: { restartable?: boolean } = {}): Promise<TimeSkippingHarness> {
  const base = await realServices(['s3', 'model']);
  const taskQueue = uniqueName('ts-tq');
  const config = adjust({ ...base, temporal: { ...base.temporal, taskQueue } });
  const env = await createTimeSkippingEnv();
  // The workflows tag sessions, jobs and approvals with the same search attributes the dev server registers.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      Object.entries(SEARCH_ATTRIBUTES).map(([k, type]) => {
        if (type !== 'Keyword') throw new Error(`time-skipping harness: map search attribute type ${type} of ${k}`);
        return [k, INDEXED_VALUE_TYPE_KEYWORD];
      }),
    ),
  });
  const newWorker = async () =>
    Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      // Publications signal the scope index workflow, and governance writes the scope usage workflow (the counters), on this (time-skipping) server; a canary publication (EVOLUTION_CANARY) starts its rollout there.
      activities: createActivities(config, {
        signalIndex: clientIndexSignaller(env.client, taskQueue),
        signalRejections: clientRejectionsSignaller(env.client, taskQueue),
        recordScope: clientScopeRecorder(env.client, taskQueue),
        startRollout: clientRolloutStarter(env.client, taskQueue),
      }),
      // The time-skipping server does not move a stopped worker's sticky workflow tasks back to the task queue; without a cache there are none.
      ...(opts.restartable ? { maxCachedWorkflows: 0 } : {}),
    });
  let worker = await newWorker();
  let running = worker.run();
  return {
    env,
    get worker() {
      return worker;
    },
    taskQueue,
    config,
    store: createSkillStore(config.s3),
    // The worker runs for the whole file; this only surfaces a worker crash as a test failure.
    run: <T>(fn: () => Promise<T>) => Promise.race([fn(), running.then(() => Promise.reject(new Error('worker stopped'))) as Promise<T>]),
    async restartWorker() {
      const stopped = running;
      running = new Promise<void>(() => {}); // a run() racing through the restart sees no stop
      worker.shutdown();
      await stopped;
      worker = await newWorker();
      running = worker.run();
    },
    async close() {
      worker.shutdown();
      await running;
      await env.teardown();
    },
  };
}

export const GOVERNANCE: GovernanceSettings = { humanGate: 'always', shadowMode: false, minToolCalls: 4, effectivenessThreshold: 0.8 };

export function sampleSpec(name: string): SkillSpec {
  return {
    name,
    description: 'Write a weather report for several cities.',
    when_to_use: 'When a user asks for the weather of more than one city.',
    steps: ['Call `geocode` with {city}.', 'Call `get_weather` with {lat, lon, date}.'],
    pitfalls: ['Always state the units.'],
  };
}

/**
 * Stores a revision held by the human gate ("always") as the learning job would: gates run by
 * core/governance, content written create-only with its audit trail (with a locator, as a
 * revision that is not a job's last; the job's last is found through its outcome).
 * Default: a create of a new skill in a new app scope.
 */
export async function storeHeldRevision(
  store: SkillStore,
  opts: { app?: string; name?: string; action?: 'create' | 'update'; parentId?: string; spec?: SkillSpec; at?: string } = {},
): Promise<{ revision: Revision; ref: RevisionRef }> {
  const app = opts.app ?? uniqueName('app');
  const scope = { mode: 'app' as const, app };
  const key = scopeKeyOf(scope);
  const name = opts.name ?? uniqueName('weather-report');
  const action = opts.action ?? 'create';
  const jobId = `test-job/${uniqueName('job')}`;
  const revision = buildGovernedRevision(
    {
      candidate: { action, source: 'reviewer', spec: opts.spec ?? sampleSpec(name), targetName: name },
      revisionId: revisionIdFor(jobId, 0),
      skillId: skillIdForName(name),
      parentId: opts.parentId,
      jobId,
      scope,
      scopeKey: key,
      reason: `${action} proposed by the reviewer`,
    },
    { existing: [], governance: GOVERNANCE, at: opts.at ?? new Date().toISOString() },
  );
  if (revision.status !== 'pending_approval') throw new Error(`expected a held revision, got ${revision.status}`);
  await store.createRevision(revision);
  await store.appendAudit({
    id: `${revision.id}-0-write_revision`,
    at: revision.createdAt,
    action: 'write_revision',
    skillId: revision.skillId,
    scopeKey: key,
    revisionId: revision.id,
    status: revision.status,
    actor: 'reviewer',
    reason: revision.reason,
  });
  return { revision, ref: { scopeKey: key, skillId: revision.skillId, revisionId: revision.id } };
}
