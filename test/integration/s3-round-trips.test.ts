import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkillStore } from '../../storage';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import type { EvolutionConfig } from '../../core';
import { overlapped, roundsOf, startCountingProxy, type CountingProxy } from '../../bench/support/s3-counting-proxy';
import { realServices, uniqueName } from '../support/infra';
import { sessionCreating } from '../support/publication';
import { startMainWorker, type RunningWorker } from '../support/worker';

// Every S3 request through this proxy waits DELAY_MS before it is forwarded, as on a remote
// store: reads that do not depend on each other must be in flight together, or each job waits
// for one round trip more than it needs to.
const DELAY_MS = 150;

let proxy: CountingProxy;
let w: RunningWorker;

beforeAll(async () => {
  const base = await realServices();
  proxy = await startCountingProxy(base.s3.endpoint!, { delayMs: DELAY_MS });
  const config: EvolutionConfig = {
    ...base,
    s3: { ...base.s3, endpoint: proxy.endpoint },
    governance: { ...base.governance, humanGate: 'none', approvalTimeoutMs: undefined, shadowMode: false },
  };
  w = await startMainWorker(config);
});

afterAll(async () => {
  await w?.stop();
  await proxy?.close();
});

describe('S3 round trips of a learning job on a remote store', () => {
  it("reads the segment and the session's cursor in one round trip", async () => {
    const app = uniqueName('round-trips');
    const store = createSkillStore(w.config.s3);
    const before = proxy.snapshot();
    const started = await startLearningJob({ client: w.client, store, config: w.config }, { app, user: 'u', sessionId: 's', events: sessionCreating('round-trip-skill') });
    const out = await waitForLearningJob({ client: w.client, store }, started.jobWorkflowId, { timeoutMs: 120_000 });
    expect(out.revisions).toMatchObject([{ action: 'create', status: 'active' }]);

    const spans = proxy.spansSince(before);
    expect(spans.filter((s) => s.cls === 'GET payload')).toHaveLength(1);
    expect(spans.filter((s) => s.cls === 'GET cursor')).toHaveLength(1);
    expect(overlapped(spans, 'GET payload', 'GET cursor')).toBe(true);
    // The review's index read depends on the cursor (only a delta worth reviewing reads it): it comes after both.
    const index = spans.find((s) => s.cls === 'GET index')!;
    expect(index.start).toBeGreaterThanOrEqual(Math.max(...spans.filter((s) => s.cls === 'GET payload' || s.cls === 'GET cursor').map((s) => s.end)));
    expect(roundsOf(spans)).toBeLessThan(spans.length);
  }, 180_000);
});

describe('roundsOf and overlapped', () => {
  it('count the periods with a request in flight, and tell overlapping requests apart', () => {
    const spans = [
      { cls: 'GET a', start: 0, end: 10 },
      { cls: 'GET b', start: 5, end: 12 },
      { cls: 'PUT c', start: 20, end: 30 },
      { cls: 'PUT c', start: 31, end: 40 },
    ];
    expect(roundsOf(spans)).toBe(3);
    expect(roundsOf([])).toBe(0);
    expect(overlapped(spans, 'GET a', 'GET b')).toBe(true);
    expect(overlapped(spans, 'GET b', 'PUT c')).toBe(false);
    expect(overlapped(spans, 'PUT c', 'PUT c')).toBe(false);
  });
});
