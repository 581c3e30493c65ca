/**
 * The CPU of each step of a learning job that creates and publishes one skill: the worker's
 * activities, called in this process one job at a time (in Temporal's MockActivityEnvironment,
 * which gives them an activity context and nothing else) against the real S3 server, the
 * model server over the openai client, and the Temporal server for the publication's index
 * signal. Next to them, in every job, a bare S3 GET of the job's segment through the store's
 * S3 client (the AWS SDK's GetObject, nothing else): the unit the
 * steps are counted in, since most of their work is S3 requests; and the publication's index
 * signal alone (the floor's publication step sends it too).
 *
 * What it shows: how the pipeline's worker CPU above the floor (bench `throughput`, whose
 * floor's activities do nothing) splits over the job's steps. Sequential, so free of the
 * queueing and GC of 100 jobs at once: a lower bound of what each step costs in a busy worker.
 * Every job is a new session in one app scope, as in the throughput bench's one-scope shape,
 * and the scope's index is updated after each job (uncounted), so the scope grows as there.
 *
 * Env: BENCH_JOBS (jobs per round, default 100), BENCH_ROUNDS (default 3), BENCH_WARMUP
 * (jobs before the first round, default 30).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../activities';
import { clientIndexSignaller, clientRejectionsSignaller } from '../activities/scope-index-signal';
import { createSkillStore } from '../storage';
import { payloadKey } from '../storage/keys';
import { sharedS3Client } from '../storage/s3-client';
import { loadConfig } from '../runtime/config';
import { connectWorkerTemporal } from '../workers/connection';
import { storeSessionEvents } from '../client/payloads';
import { scopeKey as scopeKeyOf, type Segment } from '../core';
import { segmentIdFor, type JobOutcome } from '../core/governance';
import { scopeIndexWorkflowId } from '../core/workflow-ids';
import { distinctSkillName, sessionCreating } from '../test/support/publication';
import { median, spread } from './support/stats';
import type { BenchContext, BenchFigures } from './support/types';

export const JOB_STEPS = ['prepareReview', 'reviewSession', 'recordAndPublishRevision'] as const;
type Step = (typeof JOB_STEPS)[number] | 'bareGet' | 'bareSignal';

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const JOBS = Number(process.env.BENCH_JOBS ?? 100);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
  const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
  const base = loadConfig();
  const runId = randomUUID().slice(0, 8);
  // As the throughput bench's pipeline worker: every create passes and publishes at once.
  const config = {
    ...base,
    governance: { ...base.governance, humanGate: 'none' as const, shadowMode: false },
    temporal: { ...base.temporal, taskQueue: `bench-activities-${runId}` },
  };
  // As the worker signals: a client over a NativeConnection of its own (workers/worker.ts).
  const connection = await connectWorkerTemporal(config);
  const client = new Client({ connection, namespace: config.temporal.namespace });
  const store = createSkillStore(config.s3);
  const s3 = sharedS3Client(config.s3);
  // The worker's publications signal the scope's index workflow; here no worker runs it (it is terminated at the end).
  const signalIndex = clientIndexSignaller(client, config.temporal.taskQueue);
  const activities = createActivities(config, { signalIndex, signalRejections: clientRejectionsSignaller(client, config.temporal.taskQueue), store });
  const app = `bench-activities-${runId}`;
  const scopeKey = scopeKeyOf({ mode: 'app', app });
  // The second baseline: the publication's index signal alone, into a scope of its own.
  const signalScopeKey = scopeKeyOf({ mode: 'app', app: `${app}-signal` });
  let seq = 0;

  /** One create + publish job, step by step as learningJobWorkflow calls them; CPU ms per step. */
  async function job(): Promise<Record<Step, number>> {
    const cpu = {} as Record<Step, number>;
    const step = async <T>(name: Step, f: () => Promise<T>): Promise<T> => {
      // A context of its own per call, as each activity gets (cancellation signal included).
      const env = new MockActivityEnvironment();
      const c0 = process.cpuUsage();
      const result: T = await env.run(f);
      const c = process.cpuUsage(c0);
      cpu[name] = (cpu[name] ?? 0) + (c.user + c.system) / 1000;
      return result;
    };
    const i = seq++;
    const sessionId = `s${i}`;
    const jobId = `bench-activities/${runId}/${i}`;
    const { payloadRef, eventCount } = await storeSessionEvents(store, sessionCreating(distinctSkillName(runId, i)));
    const segment: Segment = {
      app,
      user: 'u',
      sessionId,
      scopeMode: 'app',
      scopeKey,
      payloadRef,
      eventCount,
      segmentId: segmentIdFor({ scopeKey, sessionId, payloadSha256: payloadRef.sha256 }),
    };
    // Straight through the store's S3 client: the store would keep the payload, and prepareReview's GET would not happen.
    await step('bareGet', () => s3.getObject(config.s3.bucket, payloadKey(payloadRef.sha256)));
    const prepared = await step('prepareReview', () => activities.prepareReview({ segment }));
    if (!prepared.policy.review) throw new Error(`activities bench: the review policy skipped the session (${prepared.policy.reason})`);
    const at = new Date().toISOString();
    // As in the job: the review step advances the cursor with the answer and plans the proposal.
    const { plan } = await step('reviewSession', () =>
      activities.reviewSession({
        segment,
        reviewedAfter: prepared.reviewedAfter,
        indexEtag: prepared.indexEtag,
        advance: { cursor: prepared.nextCursor, cursorEtag: prepared.cursorEtag, at },
        plan: { indexEtag: prepared.indexEtag, jobId, scope: prepared.scope, scopeKey, outcome: segment.outcome, governance: prepared.governance, at },
      }),
    );
    if (!plan) throw new Error('activities bench: the review step did not plan the job');
    const [revision] = plan.revisions;
    if (plan.revisions.length !== 1 || revision?.status !== 'pending')
      throw new Error(`activities bench: expected one publishable create, got ${JSON.stringify(plan.revisions.map((r) => r.status))}`);
    // As the job's last write: the outcome is recorded with the publication.
    const before: JobOutcome = {
      jobId,
      scopeKey,
      sessionId,
      status: 'reviewed',
      reason: 'reviewer proposed changes',
      deltaEvents: prepared.deltaEventCount,
      cursorAdvanced: true,
      revisions: [],
      dropped: plan.dropped,
    };
    const published = await step('recordAndPublishRevision', () => activities.recordAndPublishRevision({ jobId, revision, outcome: { before, at: new Date().toISOString() } }));
    if (published.status !== 'active') throw new Error(`activities bench: the publication ended ${published.status}`);
    const change = { skillId: revision.skillId, seq: 1, revisionId: revision.id, entry: { name: revision.spec!.name, description: revision.spec!.description, managed: true } };
    await step('bareSignal', () => signalIndex(signalScopeKey, change));
    // What the scope's index workflow would do with the signal (not counted: a worker does it once per burst, for many jobs),
    // so the next job's review and plan see the skills this one created, as in a busy scope.
    await new MockActivityEnvironment().run(() => activities.applyScopeIndexChanges({ scopeKey, changes: [{ ...change, seq: published.indexSeq ?? 1 }] }));
    return cpu;
  }

  try {
    ctx.log(`warm-up (${WARMUP} jobs) …`);
    for (let i = 0; i < WARMUP; i++) await job();
    const rounds: Record<Step, number>[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const sum = {} as Record<Step, number>;
      for (let i = 0; i < JOBS; i++) for (const [k, v] of Object.entries(await job())) sum[k as Step] = (sum[k as Step] ?? 0) + v / JOBS;
      rounds.push(sum);
      ctx.log(`round ${r + 1}/${ROUNDS}: ${JOBS} jobs, steps ${JOB_STEPS.reduce((t, s) => t + sum[s], 0).toFixed(2)} ms CPU per job, bare S3 GET ${sum.bareGet.toFixed(2)} ms`);
    }
    const stepTotal = (r: Record<Step, number>) => JOB_STEPS.reduce((t, s) => t + r[s], 0);
    const figures: BenchFigures = { jobsPerRound: JOBS, rounds: ROUNDS, skillsInScopeAtEnd: WARMUP + ROUNDS * JOBS, bareGetMs: median(rounds.map((r) => r.bareGet)), steps: {} };
    ctx.log(`CPU per create + publish job, by step (median of ${ROUNDS} rounds, range; in bare S3 GETs measured in the same jobs):`);
    for (const s of [...JOB_STEPS, 'all steps'] as const) {
      const ms = rounds.map((r) => (s === 'all steps' ? stepTotal(r) : r[s]));
      const inGets = rounds.map((r, i) => ms[i]! / r.bareGet);
      (figures.steps as Record<string, unknown>)[s] = { ms: median(ms), bareGets: median(inGets) };
      ctx.log(`  ${s.padEnd(22)} ${spread(ms)} ms   ${spread(inGets, 1)} bare GETs`);
    }
    ctx.log(`  ${'bare S3 GET'.padEnd(22)} ${spread(rounds.map((r) => r.bareGet))} ms`);
    // The floor's publication step sends this signal too: the part of recordAndPublishRevision the pipeline adds is the rest.
    const signalInGets = rounds.map((r) => r.bareSignal / r.bareGet);
    figures.bareIndexSignal = { ms: median(rounds.map((r) => r.bareSignal)), bareGets: median(signalInGets) };
    ctx.log(
      `  ${'bare index signal'.padEnd(22)} ${spread(rounds.map((r) => r.bareSignal))} ms   ${spread(signalInGets, 1)} bare GETs (the publication's signal; the floor's publication step sends it too)`,
    );
    return figures;
  } finally {
    for (const key of [scopeKey, signalScopeKey])
      await client.workflow
        .getHandle(scopeIndexWorkflowId(key))
        .terminate('benchmark finished')
        .catch(() => undefined);
    await connection.close();
    s3.destroy();
  }
}
