import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkillStore, type SkillStore } from '../../activities/storage';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import type { EvolutionConfig } from '../../core';
import { realServices, uniqueName } from '../support/infra';
import { distinctSkillName, publicationProblems, sessionCreating } from '../support/publication';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';

// A worker process killed with SIGKILL in the middle of a burst of publications into one
// scope; a new worker process finishes every job. Afterwards every pointer, derived
// status, SKILL.md, index entry and audit entry agrees, with no duplicates.
let config: EvolutionConfig;
let connection: Connection;
let client: Client;
let store: SkillStore;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  const base = await realServices();
  config = { ...base, temporal: { ...base.temporal, taskQueue: uniqueName('burst-kill-tq') }, governance: { ...base.governance, humanGate: 'none' } };
  connection = await Connection.connect({ address: config.temporal.address });
  client = new Client({ connection, namespace: config.temporal.namespace });
  store = createSkillStore(config.s3);
});
afterAll(async () => {
  // Only the processes this file started, each by its own process group.
  await Promise.all(workers.map((w) => Promise.race([w.kill('SIGTERM'), new Promise((r) => setTimeout(r, 15_000))]).then(() => w.kill('SIGKILL'))));
  await connection?.close();
});

const workerEnv = () => ({ EVOLUTION_TASK_QUEUE: config.temporal.taskQueue, EVOLUTION_HUMAN_GATE: 'none', EVOLUTION_SCOPE_MODE: 'app' });
const JOBS = 20;

describe('worker killed with SIGKILL during a publication burst into one scope', () => {
  it('a restarted worker finishes every job; pointers, statuses, SKILL.md, index and audit agree, no duplicates', async () => {
    const first = startWorkerProcess(workerEnv());
    workers.push(first);
    await first.ready;

    const app = uniqueName('burst-kill');
    const deps = { client, store, config };
    const started = await Promise.all(
      Array.from({ length: JOBS }, (_, i) =>
        startLearningJob(deps, { app, user: `u${i}`, sessionId: `s${i}`, scopeMode: 'app', events: sessionCreating(distinctSkillName(app, i)) }),
      ),
    );
    const scopeKey = started[0]!.scopeKey;

    // Kill once the burst is under way: some pointers written, not all.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const published = (await store.listSkillIds(scopeKey)).length;
      if (published >= 3) break;
      if (Date.now() > deadline) throw new Error('no publication within 120 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    await first.kill('SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = startWorkerProcess(workerEnv());
    workers.push(second);
    await second.ready;
    const outcomes = await Promise.all(started.map((s) => waitForLearningJob(client, s.jobWorkflowId, { timeoutMs: 300_000 })));

    for (const [i, out] of outcomes.entries()) {
      expect(out.revisions, `job ${i}`).toMatchObject([{ action: 'create', status: 'active', skillId: distinctSkillName(app, i) }]);
      const pointer = (await store.readActive(scopeKey, distinctSkillName(app, i)))!.pointer;
      // One publication each: the pointer moved once, by that job's operation.
      expect(pointer).toMatchObject({ revisionId: out.revisions[0]!.revisionId, seq: 1 });
      expect(pointer.recent).toHaveLength(1);
      expect((await store.listRevisions(scopeKey, distinctSkillName(app, i))).map((r) => [r.id, r.status])).toEqual([[out.revisions[0]!.revisionId, 'active']]);
    }
    expect(await publicationProblems(store, scopeKey)).toEqual([]);
  }, 420_000);
});
