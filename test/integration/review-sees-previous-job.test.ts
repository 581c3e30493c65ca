import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { createSkillStore, indexChangeFor } from '../../storage';
import { learningActivities, type ReviewSessionInput } from '../../activities/learning';
import { createOpenAIClient } from '../../activities/llm/openai-client';
import { storeSessionEvents } from '../../client/payloads';
import { nextPointer, scopeKey as scopeKeyOf, type ReviewDecision, type Segment } from '../../core';
import { segmentIdFor } from '../../core/governance';
import { realServices, uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';

// A learning job ends once its publications are durable; the scope index follows. The
// session's next job must still see them: its review reads the index once it includes
// what the previous job published (LearningJobInput.indexedBefore).
describe("a session's next review sees what its previous job published", () => {
  it('prepareReview reads the index once it includes indexedBefore; without it, the index as it is, or the copy its worker read less than a second before', async () => {
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
    expect(asItIs.indexEtag).toBeUndefined();
    // The reviewer ranks its skills from the snapshot the review was prepared from: none, so it proposes the skill anew.
    const unseen = await review({ segment, reviewedAfter: asItIs.reviewedAfter, indexEtag: asItIs.indexEtag });
    expect(unseen.creates.map((c) => c.name)).toEqual([skillId]);

    // The index workflow's burst lands a moment later.
    const burst = new Promise((r) => setTimeout(r, 500)).then(() => store.applyScopeIndexChanges(scopeKey, [indexChangeFor(written)]));
    const prepared = await activities.prepareReview({ segment, indexedBefore: [{ skillId, seq: written.seq }] });
    await burst;
    expect(prepared.indexEtag).toBeDefined();
    expect((await store.scopeIndexSnapshot(scopeKey, prepared.indexEtag))?.skills.map((s) => s.skillId)).toEqual([skillId]);
    // Shown the skill from that snapshot, the reviewer refines it instead of creating it again.
    const seen = await review({ segment, reviewedAfter: prepared.reviewedAfter, indexEtag: prepared.indexEtag });
    expect(seen.updates.map((u) => u.name)).toEqual([skillId]);
    expect(seen.creates).toEqual([]);

    // Another worker indexes another session's skill. Within a second of this worker's read its reviews use the copy
    // it has (a busy scope's jobs share one read); after that second they read the index again.
    await new Promise((r) => setTimeout(r, 1_000));
    const readFrom = Date.now();
    const confirmed = await activities.prepareReview({ segment });
    const otherWorker = createSkillStore(config.s3);
    const other = nextPointer(
      undefined,
      { skillId: 'other-skill', revisionId: 'o-1', managed: true, deleted: false, spec: { ...spec, name: 'other-skill' } },
      { opId: 'op-2', at: new Date().toISOString() },
    );
    const { pointer: otherWritten } = await otherWorker.writeActive(scopeKey, 'other-skill', other, null);
    await otherWorker.applyScopeIndexChanges(scopeKey, [indexChangeFor(otherWritten)]);
    const within = await activities.prepareReview({ segment });
    // Checked only when the steps took well under the second (they take milliseconds): a stalled machine cannot fail it.
    if (Date.now() - readFrom < 900) expect(within.indexEtag).toBe(confirmed.indexEtag);
    await new Promise((r) => setTimeout(r, 1_000));
    const after = await activities.prepareReview({ segment });
    expect(after.indexEtag).not.toBe(confirmed.indexEtag);
    expect((await store.scopeIndexSnapshot(scopeKey, after.indexEtag))?.skills.map((s) => s.skillId).sort()).toEqual(['multi-city-weather-report', 'other-skill']);

    function review(input: ReviewSessionInput): Promise<ReviewDecision> {
      return new MockActivityEnvironment().run(activities.reviewSession, input) as Promise<ReviewDecision>;
    }
  });
});
