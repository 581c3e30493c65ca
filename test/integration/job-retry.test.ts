import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { showLearningJob } from '../../client/jobs';
import { StateError } from '../../core/errors';
import { infraEnv, infraUp } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';
import { crashService, uniqueName } from '../support/infra';
import { reviewerCalls } from '../support/model-stats';
import { slowReviewSession } from '../support/sessions';
import { pollUntil, startFixtureWorker, useWorkerProcesses } from '../support/worker-process';

// Issue 36 items 2 and 3: a job failed on purpose (S3 down for longer than a short
// EVOLUTION_STORAGE_OUTAGE_TOLERANCE, right after the reviewer answered) says why it failed
// and whether its cursor moved, in the client and in `evolution job`; submitting its segment
// again says so; once S3 is back, `evolution job retry` re-runs it to completion and the skill
// is published once. It kills the shared S3 server: serial group of vitest.config.mts.
const run = promisify(execFile);
const fx = useWorkerProcesses('job-retry-tq');
const TOLERANCE = '15s';

async function evolution(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...infraEnv(), EVOLUTION_TASK_QUEUE: fx.config.temporal.taskQueue },
      timeout: 120_000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('evolution job retry', () => {
  it('a job failed by an outage longer than the tolerance shows its root cause, then re-runs by the command and publishes once', async () => {
    await startFixtureWorker(fx, { EVOLUTION_HUMAN_GATE: 'none', EVOLUTION_STORAGE_OUTAGE_TOLERANCE: TOLERANCE });
    const session = { app: uniqueName('retry-app'), user: 'u1', sessionId: 's1' };
    const deps = { client: fx.client, store: fx.store, config: fx.config };
    const request = { ...session, events: slowReviewSession(20_000) };
    const started = await startLearningJob(deps, request);
    await pollUntil('the reviewer call under way', async () => (await reviewerCalls(fx.config.llm.baseURL, session)) >= 1, 120_000);

    await crashService('s3');
    const endpoint = fx.config.s3.endpoint!;
    try {
      // The answer arrives while S3 is down; the step after it waits 15 s, then the job fails.
      const handle = fx.client.workflow.getHandle(started.jobWorkflowId);
      await pollUntil('the job to fail', async () => (await handle.describe()).status.name === 'FAILED', 180_000);

      const view = await showLearningJob(deps, started.jobWorkflowId);
      expect(view.failedBecause).toMatchObject({ service: 'S3', address: endpoint, type: 'ServiceUnavailableError', cursorMoved: false });
      expect(view.failedBecause!.step).toMatch(/^advanceCursor/);
      expect(view.failure).toMatch(/^S3 at .* cannot be reached/);

      const shown = await evolution(['job', started.jobWorkflowId]);
      expect(shown.stderr).toBe('');
      expect(shown.stdout).toContain(`  failed: S3 at ${endpoint} cannot be reached`);
      expect(shown.stdout).toMatch(/ {2}root cause: step advanceCursor\w*, attempt \d+, retries stopped: TIMEOUT; S3 at \S+ could not be reached/);
      expect(shown.stdout).toContain('  cursor: not moved');
    } finally {
      await infraUp({ only: ['s3'] });
    }

    // The same segment again is refused with the way out, not accepted and ignored.
    await expect(startLearningJob(deps, request)).rejects.toThrow(StateError);
    await expect(startLearningJob(deps, request)).rejects.toThrow(`evolution job retry ${started.jobWorkflowId}`);

    const retried = await evolution(['job', 'retry', started.jobWorkflowId]);
    expect(retried, retried.stderr).toMatchObject({ code: 0 });
    expect(retried.stdout).toContain(`${started.jobWorkflowId}: re-running from its first step`);

    const outcome = await waitForLearningJob(deps, started.jobWorkflowId, { timeoutMs: 240_000 });
    expect(outcome).toMatchObject({ status: 'reviewed', cursorAdvanced: true });
    expect(outcome.revisions).toMatchObject([{ action: 'create', status: 'active' }]);
    const rev = outcome.revisions[0]!;
    const audit = await fx.store.listAudit(outcome.scopeKey, rev.skillId);
    expect(audit.filter((e) => e.action === 'promote').map((e) => e.revisionId)).toEqual([rev.revisionId]);
    expect((await fx.store.readActive(outcome.scopeKey, rev.skillId))?.pointer?.revisionId).toBe(rev.revisionId);
    // The failed run's answer was never applied (the cursor had not moved): the re-run asked again.
    expect(await reviewerCalls(fx.config.llm.baseURL, session)).toBe(2);
  }, 600_000);
});
