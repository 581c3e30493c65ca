import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkillStore, type SkillStore } from '../../activities/storage';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { realServices, uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { startMainWorker, type RunningWorker } from '../support/worker';

let w: RunningWorker;
let store: SkillStore;

async function reviewerCalls(baseURL: string, key: string): Promise<number> {
  const stats = (await (await fetch(`${baseURL.replace(/\/v1$/, '')}/_control/stats`)).json()) as { bySession: Record<string, number> };
  return stats.bySession[key] ?? 0;
}

beforeAll(async () => {
  const base = await realServices();
  w = await startMainWorker({ ...base, governance: { ...base.governance, humanGate: 'none' } });
  store = createSkillStore(base.s3);
});
afterAll(async () => w?.stop());

describe('session entity', () => {
  it('reviews a segment submitted twice once, and runs later segments after it', async () => {
    const app = uniqueName('dup');
    const deps = { client: w.client, store, config: w.config };
    const request = { app, user: 'u', sessionId: 's1', events: exampleSession('weather-report') };
    const [a, b] = await Promise.all([startLearningJob(deps, request), startLearningJob(deps, request)]);
    expect(b.jobWorkflowId).toBe(a.jobWorkflowId);
    const followUp = await startLearningJob(deps, { ...request, events: exampleSession('weather-report-followup') });
    const third = await startLearningJob(deps, request); // resubmitted after its job ran (or while queued)

    const first = await waitForLearningJob(w.client, a.jobWorkflowId);
    const second = await waitForLearningJob(w.client, followUp.jobWorkflowId);
    expect(third.jobWorkflowId).toBe(a.jobWorkflowId);
    expect(first.revisions.map((r) => r.action)).toEqual(['create']);
    expect(second.revisions.map((r) => r.action)).toEqual(['update']); // ordered: it saw the first job's skill
    expect(await reviewerCalls(w.config.llm.baseURL, `${app}/u/s1`)).toBe(2);
    const revisions = await store.listRevisions(a.scopeKey, first.revisions[0]!.skillId);
    expect(revisions.map((r) => r.status)).toEqual(['archived', 'active']);
  });
});
