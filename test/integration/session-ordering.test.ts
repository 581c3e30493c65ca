import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

async function reviewerCalls(baseURL: string, key: string): Promise<number> {
  const stats = (await (await fetch(`${baseURL.replace(/\/v1$/, '')}/_control/stats`)).json()) as { bySession: Record<string, number> };
  return stats.bySession[key] ?? 0;
}

const fx = useMainWorker({ humanGate: 'none' });

describe('session entity', () => {
  it('reviews a segment submitted twice once, and runs later segments after it', async () => {
    const app = uniqueName('dup');
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const request = { app, user: 'u', sessionId: 's1', events: exampleSession('weather-report') };
    const [a, b] = await Promise.all([startLearningJob(deps, request), startLearningJob(deps, request)]);
    expect(b.jobWorkflowId).toBe(a.jobWorkflowId);
    const followUp = await startLearningJob(deps, { ...request, events: exampleSession('weather-report-followup') });
    const third = await startLearningJob(deps, request); // resubmitted after its job ran (or while queued)

    const first = await waitForLearningJob(fx.w, a.jobWorkflowId);
    const second = await waitForLearningJob(fx.w, followUp.jobWorkflowId);
    expect(third.jobWorkflowId).toBe(a.jobWorkflowId);
    expect(first.revisions.map((r) => r.action)).toEqual(['create']);
    expect(second.revisions.map((r) => r.action)).toEqual(['update']); // ordered: it saw the first job's skill
    expect(await reviewerCalls(fx.w.config.llm.baseURL, `${app}/u/s1`)).toBe(2);
    const revisions = await fx.store.listRevisions(a.scopeKey, first.revisions[0]!.skillId);
    expect(revisions.map((r) => r.status)).toEqual(['archived', 'active']);
  });
});
