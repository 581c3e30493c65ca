import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { uniqueName } from '../support/infra';
import { distinctSkillName, publicationProblems, sessionCreating } from '../support/publication';
import { startWorkerProcess, useWorkerProcesses } from '../support/worker-process';

// A worker process killed with SIGKILL in the middle of a burst of publications into one
// scope; a new worker process finishes every job. Afterwards every pointer, derived
// status, index entry and audit entry agrees, with no duplicates.
const fx = useWorkerProcesses('burst-kill-tq');

const workerEnv = () => ({ EVOLUTION_TASK_QUEUE: fx.config.temporal.taskQueue, EVOLUTION_HUMAN_GATE: 'none', EVOLUTION_SCOPE_MODE: 'app' });
const JOBS = 20;

describe('worker killed with SIGKILL during a publication burst into one scope', () => {
  it('a restarted worker finishes every job; pointers, statuses, index and audit agree, no duplicates', async () => {
    const first = startWorkerProcess(workerEnv());
    fx.workers.push(first);
    await first.ready;

    const app = uniqueName('burst-kill');
    const deps = { client: fx.client, store: fx.store, config: fx.config };
    const started = await Promise.all(
      Array.from({ length: JOBS }, (_, i) =>
        startLearningJob(deps, { app, user: `u${i}`, sessionId: `s${i}`, scopeMode: 'app', events: sessionCreating(distinctSkillName(app, i)) }),
      ),
    );
    const scopeKey = started[0]!.scopeKey;

    // Kill once the burst is under way: some pointers written, not all.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const published = (await fx.store.listSkillIds(scopeKey)).length;
      if (published >= 3) break;
      if (Date.now() > deadline) throw new Error('no publication within 120 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    await first.kill('SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = startWorkerProcess(workerEnv());
    fx.workers.push(second);
    await second.ready;
    const outcomes = await Promise.all(started.map((s) => waitForLearningJob(fx, s.jobWorkflowId, { timeoutMs: 300_000 })));

    for (const [i, out] of outcomes.entries()) {
      expect(out.revisions, `job ${i}`).toMatchObject([{ action: 'create', status: 'active', skillId: distinctSkillName(app, i) }]);
      const pointer = (await fx.store.readActive(scopeKey, distinctSkillName(app, i)))!.pointer;
      // One publication each: the pointer moved once, by that job's operation.
      expect(pointer).toMatchObject({ revisionId: out.revisions[0]!.revisionId, seq: 1 });
      expect(pointer.recent).toHaveLength(1);
      expect((await fx.store.listRevisions(scopeKey, distinctSkillName(app, i))).map((r) => [r.id, r.status])).toEqual([[out.revisions[0]!.revisionId, 'active']]);
    }
    expect(await publicationProblems(fx.store, scopeKey)).toEqual([]);
  }, 420_000);
});
