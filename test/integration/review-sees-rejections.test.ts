import { describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { nextPointer, scopeKey as scopeKeyOf } from '../../core';
import { indexChangeFor } from '../../storage';
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
});
