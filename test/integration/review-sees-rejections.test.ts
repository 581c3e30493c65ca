import { describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { nextPointer, scopeKey as scopeKeyOf } from '../../core';
import { indexChangeFor, rejectionsKey, scopeIndexKey } from '../../storage';
import { uniqueName } from '../support/infra';
import { lastPrompt } from '../support/model-stats';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

// Learning from decisions: an approver's rejection, with its comment, reaches the prompt of
// the next review that may change the same skill (read back from the local model server).
const fx = useMainWorker({ humanGate: 'always' });

describe('a rejected change with a comment is visible to the next review of that skill', () => {
  it('puts the rejected update and the comment in the next reviewer prompt, and not in a review of another scope', async () => {
    const app = uniqueName('rejections');
    const scopeKey = scopeKeyOf({ mode: 'app', app });
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const skillId = 'multi-city-weather-report';
    const spec = { name: skillId, description: 'Write a weather report for several cities', when_to_use: 'weather requests', steps: ['look up each city'], pitfalls: [] };
    const pointer = nextPointer(undefined, { skillId, revisionId: `${app}-r1`, managed: true, deleted: false, spec }, { opId: 'seed', at: new Date().toISOString() });
    const { pointer: written } = await fx.store.writeActive(scopeKey, skillId, pointer, null);
    await fx.store.applyScopeIndexChanges(scopeKey, [indexChangeFor(written)]);

    const first = await waitForLearningJob(fx.w, (await startLearningJob(deps, { app, user: 'u', sessionId: 's1', events: exampleSession('weather-report') })).jobWorkflowId);
    const [held] = first.revisions;
    expect(held).toMatchObject({ action: 'update', status: 'pending_approval', name: skillId });
    const comment = `Rejected ${app}: keep the report to one table, never call the paid forecast API`;
    expect(await lastPrompt(fx.config.llm.baseURL, `${app}/u/s1`)).not.toContain('## Rejected changes');
    await decideRevision(deps, held!.revisionId, { decision: 'reject', reviewer: 'alice', comment });
    // The decision returns once the scope index names the new version of the rejections: the next review reads them.
    const indexed = await fx.store.readScopeIndex(scopeKey);
    expect(indexed && !indexed.notModified && indexed.index.rejections).toBe(1);

    const second = await waitForLearningJob(fx.w, (await startLearningJob(deps, { app, user: 'u', sessionId: 's2', events: exampleSession('weather-report') })).jobWorkflowId);
    expect(second.status).toBe('reviewed');
    const prompt = await lastPrompt(fx.config.llm.baseURL, `${app}/u/s2`);
    expect(prompt).toContain('## Rejected changes');
    expect(prompt).toContain(comment);
    expect(prompt).toMatch(/"approver": "alice"/);
    expect(prompt).toMatch(/"skill": "multi-city-weather-report"/);

    // Another scope's review is not shown this scope's rejections.
    const elsewhere = uniqueName('rejections-other');
    await waitForLearningJob(fx.w, (await startLearningJob(deps, { app: elsewhere, user: 'u', sessionId: 's1', events: exampleSession('weather-report') })).jobWorkflowId);
    expect(await lastPrompt(fx.config.llm.baseURL, `${elsewhere}/u/s1`)).not.toContain(comment);
  }, 180_000);

  it('a scope whose index and rejections were written before the index named them: the review reads the rejections, and the next index write records their version', async () => {
    const app = uniqueName('rejections-legacy');
    const scopeKey = scopeKeyOf({ mode: 'app', app });
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const skillId = 'multi-city-weather-report';
    const spec = { name: skillId, description: 'Write a weather report for several cities', when_to_use: 'weather requests', steps: ['look up each city'], pitfalls: [] };
    const pointer = nextPointer(undefined, { skillId, revisionId: `${app}-r1`, managed: true, deleted: false, spec }, { opId: 'seed', at: new Date().toISOString() });
    const { pointer: written } = await fx.store.writeActive(scopeKey, skillId, pointer, null);
    // As the code before this change wrote them: an index without `rejections`, rejections without `version`.
    const { entry } = indexChangeFor(written);
    await fx.store.objects.put(scopeIndexKey(scopeKey), {
      scopeKey,
      generation: 1,
      skills: [{ skillId, revisionId: written.revisionId, seq: written.seq, ...entry }],
      removed: [],
    });
    const comment = `Rejected ${app}: never call the paid forecast API`;
    const note = { revisionId: `${app}-r0`, skillId, name: skillId, action: 'update', source: 'reviewer', rejectedAt: new Date().toISOString(), reviewer: 'bob', comment };
    await fx.store.objects.put(rejectionsKey(scopeKey), { notes: [note] });

    const job = await waitForLearningJob(fx.w, (await startLearningJob(deps, { app, user: 'u', sessionId: 's1', events: exampleSession('weather-report') })).jobWorkflowId);
    expect(job.status).toBe('reviewed');
    expect(await lastPrompt(fx.config.llm.baseURL, `${app}/u/s1`)).toContain(comment);
    // The index's next write (a burst of its workflow; here with nothing else to apply) takes the rejections' version: their number of notes.
    await fx.store.applyScopeIndexChanges(scopeKey, []);
    const indexed = await fx.store.readScopeIndex(scopeKey);
    expect(indexed && !indexed.notModified && indexed.index).toMatchObject({ rejections: 1 });
    // A rejection recorded now is version 2, whatever wrote the first.
    expect(await fx.store.recordRejection(scopeKey, { ...note, revisionId: `${app}-r9` })).toBe(2);
    expect(await fx.store.recordRejection(scopeKey, { ...note, revisionId: `${app}-r9` })).toBe(2); // once per revision
    // That one was never announced (as a signal lost in a rolling deploy): the index's reconcile reads the stored version.
    await fx.store.reconcileScopeIndex(scopeKey);
    const reconciled = await fx.store.readScopeIndex(scopeKey);
    expect(reconciled && !reconciled.notModified && reconciled.index).toMatchObject({ rejections: 2 });
  }, 180_000);
});
