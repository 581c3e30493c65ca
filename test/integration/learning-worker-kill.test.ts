import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { uniqueName } from '../support/infra';
import { reviewerCalls } from '../support/model-stats';
import { expectPublished } from '../support/published';
import { slowReviewSession } from '../support/sessions';
import { startWorkerProcess, useWorkerProcesses } from '../support/worker-process';

// A worker process killed with SIGKILL while the reviewer call is in flight; a new
// worker process finishes the job: exactly one revision, one publication.
const fx = useWorkerProcesses('kill-tq');

const SKILL = 'multi-city-weather-report';
const workerEnv = () => ({ EVOLUTION_TASK_QUEUE: fx.config.temporal.taskQueue, EVOLUTION_HUMAN_GATE: 'none' });

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('worker killed with SIGKILL mid-job', () => {
  it('a restarted worker finishes the job with exactly one revision and one publication', async () => {
    const first = startWorkerProcess(workerEnv());
    fx.workers.push(first);
    await first.ready;

    // The reviewer answers after 4 s (a slow answer still succeeds).
    const app = uniqueName('app');
    const session = { app, user: 'u1', sessionId: 's1' };
    const events = slowReviewSession(4000);
    const started = await startLearningJob({ client: fx.client, store: fx.store, config: fx.config }, { ...session, events });

    await until('the reviewer call', async () => (await reviewerCalls(fx.config.llm.baseURL, session)) >= 1, 30_000);
    await first.kill('SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');
    // Nothing was decided by the dead worker: no revision, no cursor.
    expect(await fx.store.listRevisions(started.scopeKey, SKILL)).toEqual([]);
    expect(await fx.store.readCursor(started.scopeKey, session.sessionId)).toBeUndefined();

    const second = startWorkerProcess(workerEnv());
    fx.workers.push(second);
    await second.ready;
    const outcome = await waitForLearningJob(fx, started.jobWorkflowId, { timeoutMs: 300_000 });

    expect(outcome).toMatchObject({ status: 'reviewed', cursorAdvanced: true });
    expect(outcome.revisions).toMatchObject([{ action: 'create', status: 'active', name: SKILL }]);
    const revisionId = outcome.revisions[0]!.revisionId;
    const revisions = await fx.store.listRevisions(started.scopeKey, SKILL);
    expect(revisions.map((r) => [r.id, r.status])).toEqual([[revisionId, 'active']]);
    expect(revisions[0]!.history.filter((h) => h.to === 'active')).toHaveLength(1);
    const audit = await fx.store.listAudit(started.scopeKey, SKILL);
    expect(audit.filter((e) => e.action === 'promote').map((e) => e.revisionId)).toEqual([revisionId]);
    // One audit entry for the whole change: its publication's log entry (nothing written twice).
    expect(audit).toHaveLength(1);
    await expectPublished(fx.store, { mode: 'app', app, key: started.scopeKey }, SKILL, revisionId);
    // The lost call was re-run by Temporal's retry, once.
    expect(await reviewerCalls(fx.config.llm.baseURL, session)).toBe(2);
    expect(await fx.store.readCursor(started.scopeKey, session.sessionId)).toMatchObject({ lastEventCount: events.length });
  }, 360_000);
});
