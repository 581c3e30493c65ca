/**
 * A staged rollout outlives its worker and the Temporal server: on the real dev server, a
 * canary's rollout runs on a worker process that is killed with SIGKILL (a new one takes
 * over), steps the canary up, then the server itself crashes and comes back on the same
 * port and data (`infra up`), and the rollout still decides by itself from the outcomes fed
 * afterwards: one pointer operation and one audit event per step, none twice.
 * It restarts the shared Temporal server, so it runs in the `serial` project
 * (vitest.config.mts), after every other file.
 */
import { describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { rolloutStatus } from '../../client/rollout';
import { clientScopeRecorder } from '../../activities/usage';
import { cohortOf, type OutcomeStatus, type Scope, type ScopeRecord } from '../../core';
import { rolloutWorkflowId } from '../../core/workflow-ids';
import type { RolloutWorkflow } from '../../core/workflow-api';
import { infraUp, readState } from '../../infra';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import { holdRevision } from '../support/console';
import { crashService, uniqueName } from '../support/infra';
import { pollUntil, startFixtureWorker, useWorkerProcesses } from '../support/worker-process';

const fx = useWorkerProcesses('rollout-restart-tq');

/**
 * Every update publishes as a canary at 50 %, may step up to 75 %; 20 judged sessions per
 * cohort before any decision; a look every 2 s (the default non-inferiority margin: 5 points).
 */
const CANARY_ENV = {
  EVOLUTION_CANARY: 'all',
  EVOLUTION_CANARY_STEPS: '50,75',
  EVOLUTION_CANARY_MIN_SAMPLE: '20',
  EVOLUTION_CANARY_CHECK_INTERVAL: '2s',
  EVOLUTION_CANARY_MAX_DURATION: '1h',
  EVOLUTION_CANARY_ON_EXPIRY: 'rollback',
};

interface Canary {
  scopeKey: string;
  skillId: string;
  stable: string;
  candidate: string;
}

/**
 * Sessions of the canary's scope with known outcomes, as the learning jobs report them:
 * `perCohort` per cohort, the first round(rate × 10) of every ten succeeding; `fraction` is
 * the share the scope index shows now (what the usage workflow counts them under). One
 * signal, so the usage workflow counts them in one write: a look sees all of them or none.
 * Sessions sent before (same ids) are counted once.
 */
async function feed(c: Canary, from: number, perCohort: number, rates: { candidate: number; stable: number }, fraction: number): Promise<void> {
  const made = { candidate: 0, stable: 0 };
  const records: ScopeRecord[] = [];
  for (let i = from; made.candidate < perCohort || made.stable < perCohort; i++) {
    const sessionId = `${c.candidate}-session-${i}`;
    const cohort = cohortOf(sessionId, { revisionId: c.candidate, fraction });
    if (made[cohort] >= perCohort) continue;
    const k = made[cohort]++;
    const outcome: OutcomeStatus = k % 10 < Math.round(rates[cohort] * 10) ? 'success' : 'fail';
    records.push({ kind: 'session', usage: { jobId: `job-${sessionId}`, sessionId, outcome, loads: [] } });
  }
  await clientScopeRecorder(fx.client, fx.config.temporal.taskQueue)(c.scopeKey, records);
}

async function counted(c: Canary, atLeast: number): Promise<void> {
  await pollUntil(
    `${atLeast} sessions counted in each cohort`,
    async () => {
      const tally = (await fx.store.readUsage(c.scopeKey))?.summary.skills.find((s) => s.skillId === c.skillId)?.canary;
      return (tally?.candidate.n ?? 0) >= atLeast && (tally?.stable.n ?? 0) >= atLeast;
    },
    60_000,
  );
}

const pointerOf = async (c: Canary) => (await fx.store.readActive(c.scopeKey, c.skillId))!.pointer;
const canaryFraction = (p: Awaited<ReturnType<typeof pointerOf>>) => (p.deleted ? undefined : p.canary?.fraction);

async function indexShows(c: Canary, fraction: number): Promise<void> {
  await pollUntil(
    `the scope index to show the canary at ${fraction}`,
    async () => {
      const read = await fx.store.readScopeIndex(c.scopeKey);
      return (read && 'index' in read ? read.index.skills.find((s) => s.skillId === c.skillId)?.canary?.fraction : undefined) === fraction;
    },
    60_000,
  );
}

const canaryAudit = async (c: Canary) =>
  (await fx.store.listAudit(c.scopeKey, c.skillId)).filter((e) => e.action.startsWith('canary_')).map((e) => [e.action, e.actor, e.revisionId]);

describe('a staged rollout across a worker restart and a Temporal server restart', () => {
  it('waits for the minimum sample, steps up once, and rolls a harmful canary back by itself; one audit event per step', async () => {
    const first = await startFixtureWorker(fx, CANARY_ENV);

    // v1 published, then an update v2 approved: a canary over v1 at 50 %, its rollout running.
    const w = { client: fx.client, taskQueue: fx.config.temporal.taskQueue };
    const deps = { client: fx.client, store: fx.store };
    const scope: Scope = { mode: 'app', app: uniqueName('rollout-restart') };
    const name = uniqueName('weather');
    const v1 = await holdRevision(w, fx.store, scope, { ...WEATHER_SEED_SKILL, name });
    await decideRevision(deps, v1.revisionId, { decision: 'approve', reviewer: 'maria' });
    const v2 = await holdRevision(w, fx.store, scope, { ...WEATHER_SEED_SKILL, name, pitfalls: ['Say Celsius.'] }, { parentId: v1.revisionId });
    await decideRevision(deps, v2.revisionId, { decision: 'approve', reviewer: 'maria' });
    const c: Canary = { scopeKey: v1.scopeKey, skillId: v1.skillId, stable: v1.revisionId, candidate: v2.revisionId };
    expect(await pointerOf(c)).toMatchObject({ revisionId: c.stable, canary: { revisionId: c.candidate, fraction: 0.5 } });
    await indexShows(c, 0.5);

    // Fewer than the minimum sample: the rollout looks (on the first worker) and waits.
    await feed(c, 0, 10, { candidate: 1, stable: 1 }, 0.5);
    await counted(c, 10);
    await pollUntil('a look at the first 10 sessions per cohort', async () => (await rolloutStatus(fx.client, c.candidate)).last?.candidate.judged === 10, 60_000);
    const waiting = await rolloutStatus(fx.client, c.candidate);
    expect(waiting).toMatchObject({ state: 'running', stepIndex: 0, fraction: 0.5, last: { decision: 'wait' } });
    expect(waiting.last!.reason).toMatch(/minimum sample not reached/);

    // The worker dies the hard way; a new process takes over the running rollout.
    await first.kill('SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');
    const second = await startFixtureWorker(fx, CANARY_ENV);

    // 80 of 80 succeed in each cohort: the candidate is within 5 points ([-4.0 %, 4.0 %]) but not better: one step, to 75 %.
    await feed(c, 0, 80, { candidate: 1, stable: 1 }, 0.5);
    await counted(c, 80);
    await pollUntil('the step to 75 %', async () => canaryFraction(await pointerOf(c)) === 0.75, 180_000);
    await indexShows(c, 0.75);
    expect(await canaryAudit(c)).toEqual([
      ['canary_start', 'maria', c.candidate],
      ['canary_step', 'rollout', c.candidate],
    ]);

    // The Temporal server crashes and comes back on the same port and data; the second worker carries on.
    const before = readState().services.temporal!;
    await crashService('temporal');
    await new Promise((r) => setTimeout(r, 2_000));
    await infraUp({ only: ['temporal'] });
    const after = readState().services.temporal!;
    expect(after.pid).not.toBe(before.pid);
    expect(after.endpoint).toBe(before.endpoint);

    // At 75 %, the candidate cohort now fails every session: 80 of 120 against 120 of 120.
    await feed(c, 100_000, 40, { candidate: 0, stable: 1 }, 0.75);
    await counted(c, 120);
    const handle = fx.client.workflow.getHandle<RolloutWorkflow>(rolloutWorkflowId(c.candidate));
    // (Should the worker not outlive the server's restart, this says so instead of waiting for the test's timeout.)
    const workerDied = new Promise<never>((_, reject) =>
      second.child.once('exit', (code, signal) => reject(new Error(`the second worker exited (${code ?? signal}):\n${second.output()}`))),
    );
    workerDied.catch(() => undefined);
    const result = await Promise.race([handle.result(), workerDied]);
    expect(result).toMatchObject({ candidateRevisionId: c.candidate, outcome: 'rolled_back', decidedBy: 'rollout' });
    expect(result.reason).toMatch(/lowers the success rate/);
    const done = await rolloutStatus(fx.client, c.candidate);
    expect(done).toMatchObject({
      state: 'rolled_back',
      stepIndex: 1,
      fraction: 0.75,
      last: { decision: 'rollback', candidate: { judged: 120, success: 80 }, stable: { judged: 120, success: 120 } },
    });

    // One pointer operation and one audit event per step, none twice: v1's publication, the canary, its step, its rollback.
    const pointer = await pointerOf(c);
    expect(pointer).toMatchObject({ revisionId: c.stable, deleted: false, seq: 4 });
    expect(pointer).not.toHaveProperty('canary');
    expect(new Set(pointer.recent.map((o) => o.opId)).size).toBe(pointer.recent.length);
    expect(await canaryAudit(c)).toEqual([
      ['canary_start', 'maria', c.candidate],
      ['canary_step', 'rollout', c.candidate],
      ['canary_rollback', 'rollout', c.candidate],
    ]);
    const revisions = await fx.store.listRevisions(c.scopeKey, c.skillId);
    expect(Object.fromEntries(revisions.map((r) => [r.id, r.status]))).toEqual({ [c.stable]: 'active', [c.candidate]: 'archived' });
    expect(second.child.exitCode).toBeNull();
  }, 420_000);
});
