import { describe, expect, it } from 'vitest';
import { createSkillStore, indexChangeFor } from '../../activities/storage';
import { learningActivities } from '../../activities/learning';
import { createOpenAIClient } from '../../activities/llm/openai-client';
import { storeSessionEvents } from '../../client/payloads';
import { nextPointer, scopeKey as scopeKeyOf, type Segment } from '../../core';
import { segmentIdFor } from '../../core/governance';
import { realServices, uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';

// A learning job ends once its publications are durable; the scope index follows. The
// session's next job must still see them: its review reads the index once it includes
// what the previous job published (LearningJobInput.indexedBefore).
describe("a session's next review sees what its previous job published", () => {
  it('prepareReview reads the index once it includes indexedBefore; without it, the index as it is', async () => {
    const config = await realServices();
    const store = createSkillStore(config.s3);
    const activities = learningActivities({ config, store, openai: createOpenAIClient(config.llm) });
    const app = uniqueName('next-review');
    const scopeKey = scopeKeyOf({ mode: 'app', app });
    const { payloadRef, eventCount } = await storeSessionEvents(store, exampleSession('weather-report'));
    const segment: Segment = {
      app,
      user: 'u',
      sessionId: 's',
      scopeMode: 'app',
      scopeKey,
      payloadRef,
      eventCount,
      segmentId: segmentIdFor({ scopeKey, sessionId: 's', payloadSha256: payloadRef.sha256 }),
    };

    // The previous job's publication: the pointer moved, the index has not caught up yet.
    const skillId = 'multi-city-weather-report';
    const spec = { name: skillId, description: 'Write a weather report for several cities', when_to_use: 'weather requests', steps: ['one'], pitfalls: [] };
    const pointer = nextPointer(undefined, { skillId, revisionId: 'r-1', managed: true, deleted: false, spec }, { opId: 'op-1', at: new Date().toISOString() });
    const { pointer: written } = await store.writeActive(scopeKey, skillId, pointer, null);

    const asItIs = await activities.prepareReview({ segment });
    expect(asItIs.policy.review).toBe(true);
    expect(asItIs.existingSkills).toEqual([]);

    // The index workflow's burst lands a moment later.
    const burst = new Promise((r) => setTimeout(r, 500)).then(() => store.applyScopeIndexChanges(scopeKey, [indexChangeFor(written)]));
    const prepared = await activities.prepareReview({ segment, indexedBefore: [{ skillId, seq: written.seq }] });
    await burst;
    expect(prepared.existingSkills.map((s) => s.name)).toEqual([skillId]);
    expect(prepared.indexEtag).toBeDefined();
  });
});
