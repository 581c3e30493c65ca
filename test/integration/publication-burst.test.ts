import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { describe, expect, it, vi } from 'vitest';
import { movePointer } from '../../activities/publisher';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { clientIndexSignaller, clientIndexUpdater, MAX_INDEX_UPDATES_IN_FLIGHT } from '../../activities/scope-index-signal';
import { indexChangeFor } from '../../storage';
import { nextPointer, scopeIndexWorkflowId, scopeKey as scopeKeyOf, type IndexChange, type Revision } from '../../core';
import { scopeUsageWorkflowId } from '../../core/workflow-ids';
import { reconcileIndexSignal, scopeUsageStateQuery } from '../../workflows';
import { uniqueName } from '../support/infra';
import { activitySteps } from '../support/history';
import { decidedForPublication } from '../../core/governance';
import type { RecordAndPublishInput } from '../../activities/job-publication';
import { distinctSkillName, publicationProblems, sessionCreating } from '../support/publication';
import { useMainWorker } from '../support/worker';

/** The index changes each `indexChange` signal of a history carried (one per signal argument), in order. */
function signalledChanges(history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>): IndexChange[][] {
  const converter = defaultPayloadConverter;
  return (history.events ?? [])
    .filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'indexChange')
    .map((e) => (e.workflowExecutionSignaledEventAttributes!.input?.payloads ?? []).map((p) => converter.fromPayload<IndexChange>(p)));
}

// Many learning jobs publishing into ONE app scope at once: no pile-up, no duplicates,
// everything agents read agrees with the pointers. (No timing assertions: bench/scale.ts measures.)
const fx = useMainWorker({ humanGate: 'none' });
const JOBS = 30;

/** `count` live pointers written into the scope (as publications would), and their index changes. */
async function publishedPointers(scopeKey: string, count: number): Promise<IndexChange[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const skillId = distinctSkillName(scopeKey, i);
      const spec = { name: skillId, description: `skill ${i}`, when_to_use: 'tests', steps: ['one'], pitfalls: [] };
      const pointer = nextPointer(undefined, { skillId, revisionId: `r-${i}`, managed: true, deleted: false, spec }, { opId: `op-${i}`, at: new Date().toISOString() });
      return indexChangeFor((await fx.store.writeActive(scopeKey, skillId, pointer, null)).pointer);
    }),
  );
}

/** Waits until the scope's index lists exactly the skills of these changes. */
async function untilIndexHolds(scopeKey: string, changes: IndexChange[]): Promise<void> {
  await vi.waitFor(
    async () => {
      const index = await fx.store.readScopeIndex(scopeKey);
      expect(index && !index.notModified ? index.index.skills.map((e) => e.skillId).sort() : []).toEqual(changes.map((c) => c.skillId).sort());
    },
    { timeout: 30_000, interval: 200 },
  );
}

describe('a burst of publications into one scope', () => {
  it(`${JOBS} concurrent jobs each end with exactly one revision and one publication; index and audit agree`, async () => {
    const app = uniqueName('burst');
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const started = await Promise.all(
      Array.from({ length: JOBS }, (_, i) => startLearningJob(deps, { app, user: `u${i}`, sessionId: `s${i}`, events: sessionCreating(distinctSkillName(app, i)) })),
    );
    const outcomes = await Promise.all(started.map((s) => waitForLearningJob(fx.w, s.jobWorkflowId, { timeoutMs: 300_000 })));
    const scopeKey = started[0]!.scopeKey;
    for (const [i, out] of outcomes.entries()) {
      expect(out.revisions, `job ${i}`).toMatchObject([{ action: 'create', status: 'active', skillId: distinctSkillName(app, i) }]);
      const pointer = (await fx.store.readActive(scopeKey, distinctSkillName(app, i)))!.pointer;
      expect(pointer).toMatchObject({ revisionId: out.revisions[0]!.revisionId, seq: 1 });
      expect(pointer.recent).toHaveLength(1);
    }
    // Read-your-writes: waitForLearningJob returned once the index included each job's publication.
    expect(await publicationProblems(fx.store, scopeKey)).toEqual([]);
    const index = await fx.store.readScopeIndex(scopeKey);
    expect(index && !index.notModified ? index.index.skills.length : 0).toBe(JOBS);
  }, 360_000);

  it('a job does not wait for the index (no ack signal, no update, no timer); waitForLearningJob returns once the index includes the publication', async () => {
    const app = uniqueName('ack');
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const started = await startLearningJob(deps, { app, user: 'u', sessionId: 's', events: sessionCreating('ack-by-client-skill') });
    const out = await waitForLearningJob(fx.w, started.jobWorkflowId, { timeoutMs: 120_000 });
    expect(out.revisions).toMatchObject([{ action: 'create', status: 'active', indexSeq: 1 }]);
    expect(await publicationProblems(fx.store, started.scopeKey)).toEqual([]);

    const eventTypes = async (workflowId: string) =>
      ((await fx.w.client.workflow.getHandle(workflowId).fetchHistory()).events ?? []).map((e) => String(temporal.api.enums.v1.EventType[e.eventType!]));
    const job = await eventTypes(started.jobWorkflowId);
    expect(job).toContain('EVENT_TYPE_ACTIVITY_TASK_COMPLETED');
    expect(job.filter((t) => t === 'EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED' || t === 'EVENT_TYPE_TIMER_STARTED')).toEqual([]);
    const index = await eventTypes(scopeIndexWorkflowId(started.scopeKey));
    expect(index).toContain('EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED');
    expect(index).not.toContain('EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED');
    expect(index).not.toContain('EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED');
    // The index's bursts run inside its workflow tasks: no activity task for the server.
    expect(new Set(activitySteps(await fx.w.client.workflow.getHandle(scopeIndexWorkflowId(started.scopeKey)).fetchHistory()))).toEqual(new Set(['local:applyScopeIndexChanges']));
  });

  it('a job and the index and usage runs of its new scope record no patch marker and no search attribute upsert (retired patches cost live runs nothing)', async () => {
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const started = await startLearningJob(deps, { app: uniqueName('unpatched'), user: 'u', sessionId: 's', events: sessionCreating('unpatched-run-skill') });
    const out = await waitForLearningJob(fx.w, started.jobWorkflowId, { timeoutMs: 120_000 });
    expect(out.revisions).toMatchObject([{ action: 'create', status: 'active' }]);
    const usageId = scopeUsageWorkflowId(started.scopeKey);
    await vi.waitFor(async () => expect((await fx.w.client.workflow.getHandle(usageId).query(scopeUsageStateQuery)).bursts).toBeGreaterThan(0), { timeout: 30_000, interval: 200 });
    for (const workflowId of [started.jobWorkflowId, scopeIndexWorkflowId(started.scopeKey), usageId]) {
      const events = (await fx.w.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
      expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch' || e.upsertWorkflowSearchAttributesEventAttributes).length, workflowId).toBe(0);
      expect(activitySteps({ events }).length, workflowId).toBeGreaterThan(0);
    }
  });

  it("a publishing job's last step records the revision, publishes it and records the outcome: one activity, its input the revision as planned", async () => {
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const started = await startLearningJob(deps, { app: uniqueName('once'), user: 'u', sessionId: 's', events: sessionCreating('once-in-history-skill') });
    const out = await waitForLearningJob(fx.w, started.jobWorkflowId, { timeoutMs: 120_000 });
    expect(out.revisions).toMatchObject([{ action: 'create', status: 'active' }]);
    expect(out.revisions[0]!.indexSeq).toEqual(expect.any(Number));
    const history = await fx.w.client.workflow.getHandle(started.jobWorkflowId).fetchHistory();
    expect(activitySteps(history)).toEqual(['local:prepareReview', 'reviewSession', 'recordAndPublishRevision']);
    const inputs = (history.events ?? []).flatMap((e) => {
      const a = e.activityTaskScheduledEventAttributes;
      return a?.activityType?.name === 'recordAndPublishRevision' ? [defaultPayloadConverter.fromPayload<RecordAndPublishInput>(a.input!.payloads![0]!)] : [];
    });
    expect(inputs).toHaveLength(1);
    const [{ revision, outcome }] = inputs as [RecordAndPublishInput];
    const planned = (history.events ?? []).flatMap((e) => {
      const done = e.activityTaskCompletedEventAttributes;
      return done?.result ? [defaultPayloadConverter.fromPayload<{ plan?: { revisions?: Revision[] } }>(done.result.payloads![0]!)] : [];
    });
    // Planned by the review step: its result holds the plan.
    expect(planned.find((r) => r.plan?.revisions)?.plan?.revisions).toEqual([revision]);
    // Stored as decided for publication, then published: the derived status is active.
    const stored = await fx.store.readRevision(started.scopeKey, revision.skillId, revision.id);
    expect(stored).toMatchObject({ ...decidedForPublication(revision), status: 'active' });
    // The outcome was recorded by that step: what the job had done before it, plus its revision as published.
    expect(outcome?.before).toEqual({ ...out, revisions: [] });
    expect(await fx.store.readJobOutcome(started.scopeKey, out.jobId)).toEqual({ ...out, recordedAt: outcome!.at });
  });

  it(`a burst past the server's in-flight update limit: ${MAX_INDEX_UPDATES_IN_FLIGHT} updates per scope, the rest signal, every change lands`, async () => {
    const scopeKey = scopeKeyOf({ mode: 'app', app: uniqueName('inflight') });
    const updater = clientIndexUpdater(fx.w.client, fx.w.taskQueue);
    const CHANGES = 12; // above Temporal's default of 10 in-flight updates per workflow
    const changes = await publishedPointers(scopeKey, CHANGES);
    // Each change waits for its ack, as an approval's or a rollback's does (a learning job's does not).
    const acked = await Promise.all(changes.map((c) => updater(scopeKey, { ...c, ackTo: uniqueName('publisher') })));
    expect(acked.filter((a) => a === true)).toHaveLength(MAX_INDEX_UPDATES_IN_FLIGHT);
    await untilIndexHolds(scopeKey, changes);
    const history = await fx.w.client.workflow.getHandle(scopeIndexWorkflowId(scopeKey)).fetchHistory();
    const events = (history.events ?? []).map((e) => String(temporal.api.enums.v1.EventType[e.eventType!]));
    expect(events.filter((t) => t === 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED')).toHaveLength(MAX_INDEX_UPDATES_IN_FLIGHT);
    expect(signalledChanges(history).flat()).toHaveLength(CHANGES - MAX_INDEX_UPDATES_IN_FLIGHT);
  });

  it('concurrent publications into one scope from one worker share signals (one in flight per scope); every change lands', async () => {
    const scopeKey = scopeKeyOf({ mode: 'app', app: uniqueName('shared-signal') });
    const signaller = clientIndexSignaller(fx.w.client, fx.w.taskQueue);
    const CHANGES = 40;
    const changes = await publishedPointers(scopeKey, CHANGES);
    // All at once: the first goes alone, the others wait for it and go together.
    await Promise.all(changes.map((c) => signaller(scopeKey, c)));
    await untilIndexHolds(scopeKey, changes);
    // Read after the burst that applied them: a signal that came during a workflow task enters history when the task completes.
    const history = await fx.w.client.workflow.getHandle(scopeIndexWorkflowId(scopeKey)).fetchHistory();
    expect(signalledChanges(history).map((args) => args.length)).toEqual([1, CHANGES - 1]);
    expect(
      signalledChanges(history)
        .flat()
        .map((c) => c.skillId)
        .sort(),
    ).toEqual(changes.map((c) => c.skillId).sort());

    // A signal that cannot be sent fails every change that waited for it, and leaves nothing queued behind.
    const bad = 'not a scope key';
    const failed = await Promise.allSettled([signaller(bad, changes[0]!), signaller(bad, changes[1]!)]);
    expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected']);
    await expect(signaller(bad, changes[2]!)).rejects.toThrow(/not a scope key/);
  });

  it('the index converges after a pointer moved without its signal (a lost signal), by the reconcile', async () => {
    const app = uniqueName('lost');
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const first = await startLearningJob(deps, { app, user: 'u', sessionId: 's', events: sessionCreating('lost-signal-skill') });
    const out = await waitForLearningJob(fx.w, first.jobWorkflowId, { timeoutMs: 120_000 });
    const scopeKey = first.scopeKey;
    const skillId = out.revisions[0]!.skillId;
    const before = (await fx.store.readActive(scopeKey, skillId))!.pointer;
    if (before.deleted) throw new Error('expected a live pointer');

    // A publication whose signal never reaches the index workflow.
    await movePointer(fx.store, {
      scopeKey,
      skillId,
      opId: uniqueName('lost-op'),
      at: new Date().toISOString(),
      actor: 'test',
      reason: 'pointer moved, signal lost',
      action: 'promote',
      target: { skillId, revisionId: 'rev-without-signal', managed: true, deleted: false, spec: { ...before.spec, description: 'moved without a signal' } },
    });
    expect(await publicationProblems(fx.store, scopeKey)).toContainEqual(expect.stringContaining('index entry'));

    await fx.w.client.workflow.getHandle(scopeIndexWorkflowId(scopeKey)).signal(reconcileIndexSignal);
    await vi.waitFor(
      async () => {
        const index = await fx.store.readScopeIndex(scopeKey);
        expect(index && !index.notModified ? index.index.skills.find((s) => s.skillId === skillId) : undefined).toMatchObject({
          revisionId: 'rev-without-signal',
          seq: 2,
          description: 'moved without a signal',
        });
      },
      { timeout: 60_000, interval: 250 },
    );
    const problems = await publicationProblems(fx.store, scopeKey);
    // The hand-moved pointer names a revision that does not exist: that is the only disagreement left.
    expect(problems).toEqual([`${skillId}: pointer names rev-without-signal, active revisions []`]);
  }, 240_000);
});
