/**
 * The application on the local cluster (`npm run test:cluster`, after `infra up --cluster`):
 * Temporal as separate frontend, history, matching and worker processes on PostgreSQL;
 * SeaweedFS as master, two volume servers, filer and S3 gateway; three main worker
 * processes, two evaluator processes and two console processes, all as deployed.
 */
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkillStore, type SkillStore } from '../../storage';
import { loadConfig } from '../../runtime/config';
import { startLearningJob, waitForLearningJob, type StartedLearningJob } from '../../client/learning';
import { runExperiment } from '../../client/optimization';
import { rollbackSkill } from '../../client/rollback';
import { scopeKey as scopeKeyOf, type EvolutionConfig } from '../../core';
import type { JobOutcome } from '../../core/governance';
import { clusterEnv, killClusterProcess, restartClusterProcess } from '../../infra/cluster';
import { writeUsersFile, type TestUser } from '../support/console';
import { seedManagedSkill, weatherDataset, weatherRequest } from '../support/gepa';
import { uniqueName } from '../support/infra';
import { distinctSkillName, publicationProblems, sessionCreating } from '../support/publication';
import { startCliProcess, stopAll, type CliProcess } from './processes';

const BURST = 200;
const HELD = 8;

const taskQueue = uniqueName('cluster-tq');
const evaluatorQueue = uniqueName('cluster-eval');
const burstApp = uniqueName('cluster-burst');
const heldApp = uniqueName('cluster-held');
const gepaApp = uniqueName('cluster-gepa');
const heldNames = Array.from({ length: HELD }, (_, i) => distinctSkillName(heldApp, i));
// Learning jobs publish at once, except those of the held skills; experiments' submissions wait for a person.
const humanGate = JSON.stringify({ holdNamePattern: `^(${heldNames.join('|')})$`, holdSources: ['gepa'] });
const processEnv = { EVOLUTION_TASK_QUEUE: taskQueue, EVOLUTION_EVALUATOR_TASK_QUEUE: evaluatorQueue, EVOLUTION_HUMAN_GATE: humanGate, EVOLUTION_SCOPE_MODE: 'app' };

let config: EvolutionConfig;
let connection: Connection;
let client: Client;
let store: SkillStore;
let users: Record<string, TestUser>;
const processes: CliProcess[] = [];
const consoles: string[] = [];
const log = (line: string) => console.error(`[cluster-test] ${line}`);

function startWorker(i: number): CliProcess {
  const p = startCliProcess(`worker-${i}`, ['worker'], processEnv, /\[worker\] polling task queue/);
  processes.push(p);
  return p;
}

beforeAll(async () => {
  const env = clusterEnv();
  if (!env.TEMPORAL_ADDRESS || !env.S3_ENDPOINT) throw new Error('the cluster is not up: run `npx evolution infra up --cluster` (npm run test:cluster does)');
  config = loadConfig({ ...process.env, ...env, ...processEnv });
  connection = await Connection.connect({ address: config.temporal.address });
  client = new Client({ connection, namespace: config.temporal.namespace });
  store = createSkillStore(config.s3);
  let usersPath: string;
  ({ path: usersPath, users } = writeUsersFile([{ name: 'maria', role: 'approver', scopes: [`apps/${heldApp}`, `apps/${gepaApp}`] }]));
  const started = [
    ...[0, 1, 2].map(startWorker),
    ...[0, 1].map((i) => {
      const p = startCliProcess(`evaluator-${i}`, ['evaluator-worker', '--task-queue', evaluatorQueue, '--identity', `evaluator-${i}`], processEnv, /polling task queue/);
      processes.push(p);
      return p;
    }),
  ];
  const consoleProcesses = [0, 1].map((i) => {
    const p = startCliProcess(`console-${i}`, ['console', '--port', '0'], { ...processEnv, EVOLUTION_CONSOLE_USERS: usersPath }, /listening on (http:\/\/\S+)/);
    processes.push(p);
    return p;
  });
  await Promise.all(started.map((p) => p.ready));
  for (const p of consoleProcesses) consoles.push((await p.ready)[1]!);
  log(`3 workers, 2 evaluators and consoles ${consoles.join(', ')} up on task queue ${taskQueue}`);
}, 300_000);

afterAll(async () => {
  await stopAll(processes);
  await connection?.close();
});

const deps = () => ({ client, store, config });

function api(consoleUrl: string, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${users.maria!.token}`);
  return fetch(`${consoleUrl}${path}`, { ...init, headers });
}

async function approveThrough(consoleUrl: string, revisionId: string): Promise<unknown> {
  const res = await api(consoleUrl, `/api/revisions/${revisionId}/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ decision: 'approve', comment: `approved through ${consoleUrl}` }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** Waits until `count()` reaches `atLeast` (polled every 500 ms). */
async function until(what: string, count: () => Promise<number>, atLeast: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await count()) >= atLeast) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Workflows of `kind` in a scope that visibility reports as still running. */
async function runningWorkflows(scopeKey: string, kinds: string[]): Promise<number> {
  const { count } = await client.workflow.count(
    `EvolutionScopeKey = '${scopeKey}' AND ExecutionStatus = 'Running' AND EvolutionKind IN (${kinds.map((k) => `'${k}'`).join(', ')})`,
  );
  return count;
}

describe('the application on the cluster', () => {
  it(`a burst of ${BURST} learning jobs into one scope survives a worker SIGKILL, a history restart and a volume-server kill: 0 lost, 0 duplicated, 0 stuck`, async () => {
    const scopeKey = scopeKeyOf({ mode: 'app', app: burstApp });
    const published = async () => (await store.listSkillIds(scopeKey)).length;
    // The faults come while the burst is being submitted and published, each at a point of its own.
    const faultsAt = { workerKill: 0, historyKill: 0, volumeKill: 0 };
    const faults = (async () => {
      await until('the first publications', published, 10, 600_000);
      const victim = processes.find((p) => p.name === 'worker-0')!;
      await victim.kill('SIGKILL');
      expect(victim.child.signalCode).toBe('SIGKILL');
      faultsAt.workerKill = await published();
      log(`worker-0 killed with SIGKILL at ${faultsAt.workerKill} publications; worker-3 starts in its place`);
      const replacement = startWorker(3).ready.then(async () => log(`worker-3 polls at ${await published()} publications`));

      await until('more publications', published, 40, 600_000);
      await killClusterProcess('temporal-history', 'SIGKILL');
      faultsAt.historyKill = await published();
      log(`history service killed at ${faultsAt.historyKill} publications`);
      await restartClusterProcess('temporal-history', log);
      log(`history service restarted at ${await published()} publications`);

      await until('more publications', published, 70, 600_000);
      await killClusterProcess('weed-volume-2', 'SIGKILL');
      faultsAt.volumeKill = await published();
      log(`volume server 2 killed at ${faultsAt.volumeKill} publications`);
      await new Promise((r) => setTimeout(r, 15_000));
      await restartClusterProcess('weed-volume-2', log);
      log(`volume server 2 restarted at ${await published()} publications`);
      await replacement;
    })();
    const started: StartedLearningJob[] = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        startLearningJob(deps(), { app: burstApp, user: `u${i}`, sessionId: `s${i}`, scopeMode: 'app', events: sessionCreating(distinctSkillName(burstApp, i)) }),
      ),
    );
    expect(started.every((s) => s.scopeKey === scopeKey)).toBe(true);
    log(`${BURST} jobs submitted, ${await published()} published`);
    await faults;
    // Each fault hit the burst in flight: some of its publications were still to come.
    for (const [fault, at] of Object.entries(faultsAt)) expect(at, fault).toBeLessThan(BURST);

    const outcomes: JobOutcome[] = await Promise.all(started.map((s) => waitForLearningJob({ client, store }, s.jobWorkflowId, { timeoutMs: 1_800_000 })));
    log('every job finished');
    // 0 lost and 0 duplicated: each job published its one skill exactly once.
    for (const [i, out] of outcomes.entries()) {
      const skillId = distinctSkillName(burstApp, i);
      expect(out.revisions, `job ${i}`).toMatchObject([{ action: 'create', status: 'active', skillId }]);
      const pointer = (await store.readActive(scopeKey, skillId))!.pointer;
      expect(pointer, `job ${i}`).toMatchObject({ revisionId: out.revisions[0]!.revisionId, seq: 1 });
      expect(pointer.recent, `job ${i}`).toHaveLength(1);
      expect((await store.listRevisions(scopeKey, skillId)).map((r) => [r.id, r.status])).toEqual([[out.revisions[0]!.revisionId, 'active']]);
    }
    expect(await published()).toBe(BURST);
    expect(await publicationProblems(store, scopeKey)).toEqual([]);
    // 0 stuck: no job or approval of the scope is still running, as Temporal's visibility sees it.
    expect(await runningWorkflows(scopeKey, ['learning-job', 'approval', 'rollback'])).toBe(0);
    const { count: completed } = await client.workflow.count(`EvolutionScopeKey = '${scopeKey}' AND EvolutionKind = 'learning-job' AND ExecutionStatus = 'Completed'`);
    expect(completed).toBe(BURST);
  }, 2_400_000);

  it('held revisions are approved through both console processes alternately, with one bearer token and no shared session', async () => {
    const started = await Promise.all(
      heldNames.map((name, i) => startLearningJob(deps(), { app: heldApp, user: `h${i}`, sessionId: `h${i}`, scopeMode: 'app', events: sessionCreating(name) })),
    );
    const scopeKey = started[0]!.scopeKey;
    const outcomes = await Promise.all(started.map((s) => waitForLearningJob({ client, store }, s.jobWorkflowId, { timeoutMs: 600_000 })));
    const held = outcomes.map((o) => o.revisions[0]!);
    expect(held.map((r) => r.status)).toEqual(heldNames.map(() => 'pending_approval'));

    // Both consoles list the same pending revisions: everything they show comes from S3 and Temporal.
    for (const url of consoles) {
      const pending = (await (await api(url, '/api/pending')).json()) as { revisions: { revisionId: string }[] };
      expect(pending.revisions.map((r) => r.revisionId).sort()).toEqual(held.map((r) => r.revisionId).sort());
    }
    for (const [i, revision] of held.entries()) {
      expect(await approveThrough(consoles[i % 2]!, revision.revisionId)).toMatchObject({
        revisionId: revision.revisionId,
        decision: 'approved',
        reviewer: 'maria',
        finalStatus: 'active',
      });
    }
    for (const [i, revision] of held.entries()) {
      expect((await store.readActive(scopeKey, heldNames[i]!))!.pointer.revisionId).toBe(revision.revisionId);
    }
    expect(((await (await api(consoles[1]!, '/api/pending')).json()) as { revisions: unknown[] }).revisions).toEqual([]);
    expect(await publicationProblems(store, scopeKey)).toEqual([]);
    expect(await runningWorkflows(scopeKey, ['learning-job', 'approval'])).toBe(0);
  }, 900_000);

  it('a GEPA experiment on the two evaluator processes submits a revision; approved through a console, then rolled back', async () => {
    const skill = await seedManagedSkill(store, { app: gepaApp });
    const report = await runExperiment(
      deps(),
      weatherRequest(evaluatorQueue, weatherDataset(), { scope: skill.scope, skillId: skill.skillId, parentRevisionId: 'active', submit: true }),
    );
    expect(report.status).toBe('completed');
    expect(report.promotionEligible).toBe(true);
    expect(report.submission).toMatchObject({ status: 'submitted', revisionStatus: 'pending_approval' });
    const submitted = report.submittedRevisionId!;

    expect(await approveThrough(consoles[0]!, submitted)).toMatchObject({ revisionId: submitted, decision: 'approved', finalStatus: 'active' });
    expect((await store.readActive(skill.scopeKey, skill.skillId))!.pointer.revisionId).toBe(submitted);

    const rolledBack = await rollbackSkill(deps(), { scopeKey: skill.scopeKey, skillId: skill.skillId, reviewer: 'maria', comment: 'back to the seed' });
    expect(rolledBack).toMatchObject({ restoredRevisionId: skill.revisionId, archivedRevisionId: submitted });
    expect((await store.readActive(skill.scopeKey, skill.skillId))!.pointer.revisionId).toBe(skill.revisionId);
    expect(await publicationProblems(store, skill.scopeKey)).toEqual([]);
    expect(await runningWorkflows(skill.scopeKey, ['approval', 'rollback'])).toBe(0);
  }, 900_000);
});
