import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { listOpenApprovals } from '../../client/approvals';
import { listLearningJobs } from '../../client/jobs';
import { uniqueName } from '../support/infra';
import { distinctSkillName, sessionCreating } from '../support/publication';
import { useMainWorker } from '../support/worker';

// Pending and `jobs` read Temporal's visibility, which trails a start or a close (the more,
// the busier the server). A platform (or `learn --wait`) that waited for a job and then lists
// must find what the job did: the job closed, the revisions it held pending.
const fx = useMainWorker({ humanGate: 'create_only' });
const JOBS = 16;

describe('waitForLearningJob and what visibility lists', () => {
  it(`returns once the job is listed as closed and its held revisions as pending (${JOBS} jobs at once)`, async () => {
    const app = uniqueName('visible');
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const misses = await Promise.all(
      Array.from({ length: JOBS }, async (_, i) => {
        const started = await startLearningJob(deps, { app, user: 'u', sessionId: `s${i}`, events: sessionCreating(distinctSkillName(app, i)) });
        const outcome = await waitForLearningJob(deps, started.jobWorkflowId);
        const held = outcome.revisions.filter((r) => r.status === 'pending_approval').map((r) => r.revisionId);
        expect(held, `job ${i}`).toHaveLength(1);
        // Read at once, as a caller would right after the wait.
        const [open, jobs] = await Promise.all([listOpenApprovals(fx.w.client, { scopeKeys: [started.scopeKey] }), listLearningJobs(deps, started.scopeKey, { limit: 1000 })]);
        const missing: string[] = [];
        if (!held.every((id) => open.some((a) => a.revisionId === id))) missing.push(`job ${i}: held revision not pending`);
        if (jobs.find((j) => j.jobId === started.jobWorkflowId)?.workflowStatus !== 'COMPLETED') missing.push(`job ${i}: not listed as completed`);
        return missing;
      }),
    );
    expect(misses.flat()).toEqual([]);
  }, 240_000);
});
