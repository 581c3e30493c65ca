import { beforeAll, describe, expect, it } from 'vitest';
import { createSkillStore, reviewAnswerKey, type SkillStore } from '../../storage';
import { scopeKey as scopeKeyOf } from '../../core';
import type { ReviewDecision } from '../../core/schemas/review';
import { realServices, uniqueName } from '../support/infra';

let store: SkillStore;

beforeAll(async () => {
  const cfg = await realServices(['s3']);
  store = createSkillStore(cfg.s3);
});

const decision: ReviewDecision = {
  skip_reason: '',
  creates: [{ name: 'triage-flaky-test', description: 'd', when_to_use: 'w', steps: ['s'], pitfalls: [] }],
  updates: [],
  deletions: [],
  dropped: [],
  answer: { format: 'json_schema', repairs: [], promptTokens: 120, completionTokens: 40 },
};

describe('review answer store', () => {
  it('answers only the attempt of the same run and step, keeps one object per session, and reads an unreadable one as absent', async () => {
    const owner = { scopeKey: scopeKeyOf({ mode: 'app', app: uniqueName('app') }), sessionId: uniqueName('s'), runId: 'run-1', activityId: '3' };
    expect(await store.readReviewAnswer(owner)).toBeUndefined();

    await store.writeReviewAnswer(owner, decision);
    expect(await store.readReviewAnswer(owner)).toEqual(decision);
    expect(await store.readReviewAnswer({ ...owner, runId: 'run-2' })).toBeUndefined();
    expect(await store.readReviewAnswer({ ...owner, activityId: '4' })).toBeUndefined();

    // The session's next job overwrites it: the earlier job's answer is gone, the object is one.
    await store.writeReviewAnswer({ ...owner, runId: 'run-2' }, { ...decision, creates: [] });
    expect(await store.readReviewAnswer(owner)).toBeUndefined();
    expect(await store.readReviewAnswer({ ...owner, runId: 'run-2' })).toMatchObject({ creates: [] });

    await store.objects.put(reviewAnswerKey(owner.scopeKey, owner.sessionId), { runId: 'run-2', activityId: '3', decision: { creates: 'not a list' } });
    expect(await store.readReviewAnswer({ ...owner, runId: 'run-2' })).toBeUndefined();
  });
});
