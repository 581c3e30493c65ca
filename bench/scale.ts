/**
 * `npm run bench -- scale`: publication at scale, on the local services.
 *  1. S3 requests and latency per operation (create + publish, update + publish, approval,
 *     rollback, policy skip, agent refresh) with 1, 200 and 2,000 skills in the scope
 *     (skills seeded directly through the store API), and the job's history bytes.
 *  2. N concurrent learning jobs into ONE app scope vs into N separate scopes (N = 50, 200),
 *     interleaved; the ratio is what contention in one scope costs.
 * The worker's S3 traffic goes through a counting proxy; seeding and checks do not.
 */
import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { createSkillStore, indexChangeFor, mapLimit, type SkillStore } from '../storage';
import { decideRevision } from '../client/approvals';
import { loadConfig } from '../runtime/config';
import { startLearningJob, waitForLearningJob } from '../client/learning';
import { rollbackSkill } from '../client/rollback';
import { SkillRepository } from '../client/skill-repository';
import { nextPointer, type EvolutionConfig, type Revision, type SessionEvent, type UsageSummary } from '../core';
import { approvalWorkflowId } from '../core/workflow-ids';
import { approvalWorkflow } from '../workflows';
import { startMainWorker, type RunningWorker } from '../workers/in-process';
import { distinctSkillName, sessionCreating } from '../test/support/publication';
import { exampleSession } from '../test/support/sessions';
import { roundsOf, startCountingProxy, type CountingProxy, type Counts } from './support/s3-counting-proxy';
import { median, percentile } from './support/stats';
import type { BenchContext, BenchFigures } from './support/types';

// BENCH_QUICK=1: a smoke run (one small size, a few jobs) to check the benchmark itself.
const QUICK = process.env.BENCH_QUICK === '1';
const SCOPE_SIZES = QUICK ? [1, 50] : [1, 200, 2000];
// BENCH_SCALE_N=50,200 and BENCH_SCALE_PARTS=operations,concurrency select parts of a run.
const CONCURRENCY = process.env.BENCH_SCALE_N ? process.env.BENCH_SCALE_N.split(',').map(Number) : QUICK ? [5] : [50, 200];
const PARTS = new Set((process.env.BENCH_SCALE_PARTS ?? 'operations,concurrency').split(','));
// BENCH_S3_LATENCY_MS=20: every worker request waits that long in the proxy, as on a remote
// store; the operations then also show their S3 round trips one after the other.
const S3_LATENCY_MS = Number(process.env.BENCH_S3_LATENCY_MS ?? 0);
const REPEATS = QUICK ? 1 : 3;

function session(name: 'weather-report' | 'weather-report-followup' | 'small-talk', skillName?: string): SessionEvent[] {
  return skillName ? sessionCreating(skillName, name) : exampleSession(name);
}

async function seedSkills(store: SkillStore, scopeKey: string, count: number): Promise<void> {
  const changes = await mapLimit(
    Array.from({ length: count }, (_, i) => i),
    16,
    async (i) => {
      const skillId = `seeded-${i}`;
      const pointer = nextPointer(
        undefined,
        {
          skillId,
          revisionId: `seed-${i}`,
          managed: true,
          deleted: false,
          spec: { name: skillId, description: `Seeded skill ${i} about topic ${i % 37} and area ${i % 11}`, when_to_use: 'benchmarks', steps: ['one', 'two'], pitfalls: [] },
        },
        { opId: `seed/${i}`, at: new Date(Date.UTC(2026, 0, 1)).toISOString() },
      );
      const written = await store.writeActive(scopeKey, skillId, pointer, null);
      return indexChangeFor(written.pointer);
    },
  );
  await store.applyScopeIndexChanges(scopeKey, changes);
}

async function historyBytes(client: Client, workflowId: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return temporal.api.history.v1.History.encode(history).finish().byteLength;
}

interface Measured {
  requests: Counts;
  ms: number;
  /** S3 round trips one after the other (requests in flight together count once). */
  rounds: number;
}

async function measure(proxy: CountingProxy, fn: () => Promise<unknown>): Promise<Measured> {
  const before = proxy.snapshot();
  const started = performance.now();
  await fn();
  const ms = performance.now() - started;
  return { requests: proxy.diff(before), ms, rounds: roundsOf(proxy.spansSince(before)) };
}

function heldRevision(scopeKey: string, app: string, skillId: string, parentId: string, n: number): Revision {
  const at = new Date().toISOString();
  return {
    id: `rev-bench-${randomUUID().slice(0, 12)}-${n}`,
    skillId,
    scopeKey,
    scope: { mode: 'app', app },
    action: 'update',
    status: 'pending_approval',
    parentId,
    spec: { name: skillId, description: `held update ${n}`, when_to_use: 'benchmarks', steps: ['held', String(n)], pitfalls: [] },
    source: 'reviewer',
    jobId: `bench/${n}`,
    reason: 'bench',
    gates: [],
    human: { held: true, reasons: ['bench'] },
    shadowBypassed: false,
    createdAt: at,
    updatedAt: at,
    history: [],
  };
}

/**
 * Waits (reading around the proxy) until the scope's usage workflow has counted what an
 * operation wrote: its burst writes the usage summary after the operation returns, and
 * belongs to the operation's count, not the next one's.
 */
async function counted(store: SkillStore, scopeKey: string, done: (summary: UsageSummary) => boolean): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const read = await store.readUsage(scopeKey);
    if (read && done(read.summary)) return;
  }
  throw new Error(`the usage summary of ${scopeKey} did not follow the operation within 60 s`);
}

async function perOperation(ctx: BenchContext, w: RunningWorker, store: SkillStore, proxy: CountingProxy, skills: number) {
  const deps = { client: w.client, store, config: w.config };
  const ops: Record<string, Measured[]> = {};
  const add = (op: string, m: Measured) => (ops[op] ??= []).push(m);
  let jobHistory = 0;
  for (let r = 0; r < REPEATS; r++) {
    const app = `bench-${skills}-${randomUUID().slice(0, 6)}`;
    const scopeKey = `apps/${app}`;
    await seedSkills(store, scopeKey, skills);
    // A name (so a transcript) of its own: the worker has not cached this segment, as for a new session.
    const name = distinctSkillName(app, r);
    let jobId = '';
    let skillId = '';
    add(
      'create + publish',
      await measure(proxy, async () => {
        const started = await startLearningJob(deps, { app, user: 'u', sessionId: 's1', events: session('weather-report', name) });
        jobId = started.jobWorkflowId;
        const out = await waitForLearningJob({ client: w.client, store }, jobId, { timeoutMs: 120_000 });
        if (out.revisions[0]?.action !== 'create' || out.revisions[0]?.status !== 'active') throw new Error(`create did not publish: ${JSON.stringify(out)}`);
        skillId = out.revisions[0].skillId;
        await counted(store, scopeKey, (u) => u.sessions === 1 && u.governance?.counts.promoted === 1);
      }),
    );
    jobHistory = Math.max(jobHistory, await historyBytes(w.client, jobId));
    add(
      'update + publish',
      await measure(proxy, async () => {
        const started = await startLearningJob(deps, { app, user: 'u', sessionId: 's1', events: session('weather-report-followup', name) });
        const out = await waitForLearningJob({ client: w.client, store }, started.jobWorkflowId, { timeoutMs: 120_000 });
        if (out.revisions[0]?.action !== 'update' || out.revisions[0]?.status !== 'active') throw new Error(`update did not publish: ${JSON.stringify(out)}`);
        await counted(store, scopeKey, (u) => u.sessions === 2 && u.governance?.counts.promoted === 2);
      }),
    );
    add(
      'policy skip',
      await measure(proxy, async () => {
        const started = await startLearningJob(deps, { app, user: 'u', sessionId: 's2', events: session('small-talk') });
        const out = await waitForLearningJob({ client: w.client, store }, started.jobWorkflowId, { timeoutMs: 120_000 });
        if (out.status !== 'policy_skipped') throw new Error(`expected a policy skip: ${out.status}`);
        await counted(store, scopeKey, (u) => u.sessions === 3);
      }),
    );
    add(
      'rollback',
      await measure(proxy, async () => {
        await rollbackSkill({ client: w.client, config: w.config }, { scopeKey, skillId, reviewer: 'bench' });
        await counted(store, scopeKey, (u) => !!u.recentEvents?.some((e) => e.action === 'rollback'));
      }),
    );
    // A held revision (stored directly), then its approval through the approval workflow.
    const current = (await store.readActive(scopeKey, skillId))!.pointer;
    const held = await store.createRevision(heldRevision(scopeKey, app, skillId, current.revisionId, r));
    await w.client.workflow.start(approvalWorkflow, {
      taskQueue: w.taskQueue,
      workflowId: approvalWorkflowId(held.id),
      args: [{ revision: { scopeKey, skillId, revisionId: held.id } }],
    });
    add(
      'approval',
      await measure(proxy, async () => {
        await decideRevision({ client: w.client, store }, held.id, { decision: 'approve', reviewer: 'bench' });
        await counted(store, scopeKey, (u) => u.governance?.counts.humanApproved === 1);
      }),
    );
    const agentStore = createSkillStore({ ...w.config.s3, endpoint: proxy.endpoint });
    const repo = new SkillRepository(agentStore, { mode: 'app', app });
    await repo.refresh();
    add('agent refresh (unchanged)', await measure(proxy, () => repo.refresh()));
  }
  const rows = Object.entries(ops).map(([op, ms]) => {
    const requests = median(ms.map((m) => m.requests.total));
    const detail = ms.at(-1)!.requests.byClass;
    return { op, requests, rounds: median(ms.map((m) => m.rounds)), ms: median(ms.map((m) => m.ms)), detail };
  });
  for (const row of rows)
    ctx.log(
      `  ${String(skills).padStart(5)} skills  ${row.op.padEnd(26)} ${String(row.requests).padStart(4)} S3 requests${S3_LATENCY_MS ? ` in ${String(row.rounds).padStart(3)} rounds` : ''}  ${row.ms.toFixed(0).padStart(6)} ms   ${JSON.stringify(row.detail)}`,
    );
  ctx.log(`  ${String(skills).padStart(5)} skills  learning job history: ${jobHistory} bytes`);
  return { rows, jobHistoryBytes: jobHistory };
}

async function concurrentJobs(w: RunningWorker, store: SkillStore, proxy: CountingProxy, n: number, oneScope: boolean) {
  const deps = { client: w.client, store, config: w.config };
  const run = randomUUID().slice(0, 6);
  const apps = Array.from({ length: n }, (_, i) => (oneScope ? `conc-one-${run}` : `conc-sep-${run}-${i}`));
  const before = proxy.snapshot();
  const started = performance.now();
  const jobs = await Promise.all(
    apps.map((app, i) => startLearningJob(deps, { app, user: `u${i}`, sessionId: `s${i}`, events: session('weather-report', distinctSkillName(run, i)) })),
  );
  const latencies: number[] = [];
  const outcomes = await Promise.all(
    jobs.map(async (j) => {
      const out = await waitForLearningJob({ client: w.client, store }, j.jobWorkflowId, { timeoutMs: 15 * 60_000 });
      latencies.push(performance.now() - started);
      return out;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // S3 requests per job, the scope's usage bursts included: the index and usage workflows write once per burst, so
  // in one busy scope a job's share of those writes is well under one.
  for (const scopeKey of new Set(outcomes.map((o) => o.scopeKey))) await counted(store, scopeKey, (s) => s.sessions >= outcomes.filter((o) => o.scopeKey === scopeKey).length);
  const cost = proxy.diff(before);
  const perJob = { total: cost.total / n, ...Object.fromEntries(Object.entries(cost.byClass).map(([k, v]) => [k, v / n])) };
  // Correctness: each job exactly one revision, published once.
  const problems: string[] = [];
  for (const [i, out] of outcomes.entries()) {
    if (out.revisions.length !== 1 || out.revisions[0]!.status !== 'active') problems.push(`job ${i}: ${JSON.stringify(out.revisions.map((r) => [r.action, r.status]))}`);
    else {
      const p = await store.readActive(out.scopeKey, out.revisions[0]!.skillId);
      if (p?.pointer.seq !== 1) problems.push(`job ${i}: pointer seq ${p?.pointer.seq}`);
    }
  }
  return { seconds, p50: median(latencies) / 1000, p95: percentile(latencies, 95) / 1000, problems, requestsPerJob: perJob };
}

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const base = loadConfig();
  const proxy = await startCountingProxy(base.s3.endpoint!, { delayMs: S3_LATENCY_MS });
  if (S3_LATENCY_MS) ctx.log(`Every worker S3 request waits ${S3_LATENCY_MS} ms in the proxy (BENCH_S3_LATENCY_MS), as on a remote store.`);
  const config: EvolutionConfig = {
    ...base,
    s3: { ...base.s3, endpoint: proxy.endpoint },
    governance: { ...base.governance, humanGate: 'none', approvalTimeoutMs: undefined, shadowMode: false, defaultScopeMode: 'app' },
  };
  const w = await startMainWorker(config);
  const store = createSkillStore(base.s3); // seeding and checks: not counted
  const figures: BenchFigures = {};
  try {
    if (PARTS.has('operations')) {
      ctx.log('S3 requests and latency per operation (median of 3; detail = the last run, by method and key class):');
      const perSize: Record<string, unknown> = {};
      for (const skills of SCOPE_SIZES) perSize[skills] = await perOperation(ctx, w, store, proxy, skills);
      figures.perOperation = perSize;
    }
    if (!PARTS.has('concurrency')) return figures;

    ctx.log('\nN concurrent learning jobs (each creates one skill): one app scope vs N separate scopes, interleaved:');
    const conc: Record<string, unknown> = {};
    for (const n of CONCURRENCY) {
      const separate = await concurrentJobs(w, store, proxy, n, false);
      const one = await concurrentJobs(w, store, proxy, n, true);
      const ratio = one.seconds / separate.seconds;
      ctx.log(
        `  N=${n}: separate scopes ${separate.seconds.toFixed(1)} s (p50 ${separate.p50.toFixed(1)} s, p95 ${separate.p95.toFixed(1)} s), one scope ${one.seconds.toFixed(1)} s (p50 ${one.p50.toFixed(1)} s, p95 ${one.p95.toFixed(1)} s): ratio one/separate ${ratio.toFixed(2)}`,
      );
      const share = (r: Record<string, number>) =>
        `${r.total!.toFixed(2)} (${['PUT index', 'PUT usage']
          .filter((k) => r[k] !== undefined)
          .map((k) => `${k} ${r[k]!.toFixed(2)}`)
          .join(', ')})`;
      ctx.log(`    S3 requests per job: separate scopes ${share(separate.requestsPerJob)}, one scope ${share(one.requestsPerJob)}`);
      for (const p of [...separate.problems, ...one.problems]) ctx.log(`    PROBLEM ${p}`);
      conc[n] = { separate, one, ratio };
    }
    figures.concurrency = conc;
  } finally {
    await w.stop();
    await proxy.close();
  }
  return figures;
}
