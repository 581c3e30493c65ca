import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { infraUp, readState } from '../../infra';
import { crashService, uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

// Local services come back where they were: Temporal and S3 are killed in the middle of a
// burst of learning jobs, `infra up` restarts them on the same ports and data, and the
// running worker and client carry on without being restarted.
const fx = useMainWorker();

const JOBS = 6;

describe('infra up after Temporal and S3 crash mid-burst', () => {
  it('restarts them on the same ports, and every job finishes on the same worker', async () => {
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const app = uniqueName('restart');
    const started = await Promise.all(
      Array.from({ length: JOBS }, (_, i) =>
        startLearningJob(deps, {
          app,
          user: 'u1',
          sessionId: `burst-${i}`,
          events: exampleSession(i % 2 ? 'weather-report' : 'small-talk').map((e, idx) => (idx === 0 ? { ...e, content: `${e.content as string} (burst ${i})` } : e)),
        }),
      ),
    );
    const before = readState().services;

    await crashService('temporal');
    await crashService('s3');
    await new Promise((r) => setTimeout(r, 2_000));
    await infraUp({ only: ['s3', 'temporal'] });

    const after = readState().services;
    expect(after.temporal!.pid).not.toBe(before.temporal!.pid);
    expect(after.s3!.pid).not.toBe(before.s3!.pid);
    expect(after.temporal!.endpoint).toBe(before.temporal!.endpoint);
    expect(after.s3!.endpoint).toBe(before.s3!.endpoint);
    expect(after.temporal!.ports).toEqual(before.temporal!.ports);

    const outcomes = await Promise.all(started.map((s) => waitForLearningJob(fx.w, s.jobWorkflowId, { timeoutMs: 240_000 })));
    expect(outcomes.map((o) => o.jobId)).toEqual(started.map((s) => s.jobWorkflowId));
    for (const o of outcomes) expect(['reviewed', 'policy_skipped', 'reviewer_skipped'], `${o.jobId}: ${o.status} ${o.reason}`).toContain(o.status);
    expect(fx.w.worker.getState()).toBe('RUNNING');
  }, 300_000);
});
