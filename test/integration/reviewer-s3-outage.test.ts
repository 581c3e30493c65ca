import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { infraUp } from '../../infra';
import { crashService, uniqueName } from '../support/infra';
import { reviewerCalls } from '../support/model-stats';
import { slowReviewSession } from '../support/sessions';
import { pollUntil, startFixtureWorker, useWorkerProcesses } from '../support/worker-process';

// Issue 10 item 7: infrastructure faults do not spend the reviewer's budget of model
// answers (three). An S3 outage: the reviewer's transcript read fails more times than the
// reviewer has attempts, and the job still finishes once S3 is back. It kills the shared
// S3 server, so it is in the serial group of vitest.config.mts (worker deaths:
// reviewer-infrastructure-faults.test.ts).
const fx = useWorkerProcesses('infra-fault-s3-tq');
const startWorker = () => startFixtureWorker(fx, { EVOLUTION_HUMAN_GATE: 'none' });

describe('reviewer attempts under infrastructure faults', () => {
  it("an S3 outage that fails the reviewer's transcript read more than three times does not end the job reviewer_failed", async () => {
    const first = await startWorker();
    const session = { app: uniqueName('app'), user: 'u1', sessionId: 's1' };
    // Each reviewer answer takes 20 s: the first call is still in flight after the second
    // worker has started (seconds on a loaded machine) and S3 is down.
    const events = slowReviewSession(20000);
    const started = await startLearningJob({ client: fx.client, store: fx.store, config: fx.config }, { ...session, events });
    await pollUntil('the first reviewer call', async () => (await reviewerCalls(fx.config.llm.baseURL, session)) >= 1, 120_000);
    // A second worker that never read this segment (its payload cache is empty), then S3
    // goes down and the first worker dies mid-call: the reviewer's next attempts run on the
    // second worker and must read the transcript from S3.
    await startWorker();
    await crashService('s3');
    expect(await reviewerCalls(fx.config.llm.baseURL, session)).toBe(1);
    await first.kill('SIGKILL');
    const handle = fx.client.workflow.getHandle(started.jobWorkflowId);
    let lastSeen = '';
    await pollUntil(
      () => `four failed transcript reads after the worker death (more than the reviewer has model-answer attempts); reviewSession at ${lastSeen}`,
      async () => {
        const { raw } = await handle.describe();
        const review = raw.pendingActivities?.find((a) => a.activityType?.name === 'reviewSession');
        lastSeen = `attempt ${review?.attempt}, last failure: ${review?.lastFailure?.message}`;
        return (review?.attempt ?? 0) >= 6 && /S3|storage|ECONNREFUSED|connect/i.test(review?.lastFailure?.message ?? '');
      },
      400_000,
    );
    await infraUp({ only: ['s3'] });
    const outcome = await waitForLearningJob(fx, started.jobWorkflowId, { timeoutMs: 300_000 });
    expect(outcome).toMatchObject({ status: 'reviewed', cursorAdvanced: true });
    expect(outcome.revisions).toMatchObject([{ action: 'create', status: 'active', name: 'multi-city-weather-report' }]);
    // The call the dead worker made, and the one that succeeded after the outage.
    expect(await reviewerCalls(fx.config.llm.baseURL, session)).toBe(2);
  }, 900_000);
});
