import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporal as temporal_ } from '@temporalio/proto';
import { decideRevision } from '../../client/approvals';
import { connectTemporal, type Connected } from '../../runtime/connection';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { createSkillStore } from '../../storage';
import type { EvolutionConfig } from '../../core';
import { freeLocalPort } from '../../workers/telemetry/runtime';
import { realServices, uniqueName } from '../support/infra';
import { exampleSession, slowReviewSession } from '../support/sessions';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';

/**
 * The deployed worker process (`tsx workers/main.ts`, its own Runtime): metrics, health and
 * readiness on EVOLUTION_METRICS_PORT, JSON logs when not on a terminal, SIGTERM → drain → 0.
 */
let config: EvolutionConfig;
let temporal: Connected;
let worker: WorkerProcess;
let port: number;
const taskQueue = uniqueName('tq-ops');

const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);

beforeAll(async () => {
  const base = await realServices();
  config = { ...base, temporal: { ...base.temporal, taskQueue } };
  port = await freeLocalPort();
  worker = startWorkerProcess({
    EVOLUTION_TASK_QUEUE: taskQueue,
    EVOLUTION_METRICS_PORT: String(port),
    EVOLUTION_HUMAN_GATE: 'create_only',
    EVOLUTION_LOG_LEVEL: 'DEBUG',
    EVOLUTION_APPROVAL_TIMEOUT: 'none',
  });
  await worker.ready;
  temporal = await connectTemporal(config);
});

afterAll(async () => {
  await worker?.kill('SIGKILL');
  await temporal?.close();
});

/** `name{labels} value` lines of one metric, labels parsed. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .map((l) => {
      const m = /^[^{\s]+(?:\{(.*)\})?\s+(\S+)/.exec(l)!;
      const labels = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
      return { labels, value: Number(m[2]) };
    });
}
const total = (text: string, name: string, where: Record<string, string> = {}) =>
  samples(text, name)
    .filter((s) => Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);

describe('worker process operations', () => {
  it('serves health, readiness and, after a job, SDK and product metrics with low-cardinality labels', async () => {
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);

    const app = uniqueName('metrics-app');
    const store = createSkillStore(config.s3);
    const deps = { client: temporal.client, store, config };
    const started = await startLearningJob(deps, { app, user: 'u1', sessionId: 's1', events: exampleSession('weather-report') });
    const outcome = await waitForLearningJob({ client: temporal.client, store }, started.jobWorkflowId);
    const [rev] = outcome.revisions;
    expect(rev).toMatchObject({ status: 'pending_approval' });
    await decideRevision(deps, rev!.revisionId, { decision: 'approve', reviewer: 'alice' });

    const res = await get('/metrics');
    expect(res.status).toBe(200);
    const text = await res.text();
    // The SDK's own metrics (task queue polling, activity execution).
    expect(text, 'SDK metrics').toContain(`temporal_num_pollers{namespace="default",poller_type="activity_task",service_name="temporal-core-sdk",task_queue="${taskQueue}"}`);
    expect(total(text, 'temporal_activity_execution_latency_milliseconds_count', { task_queue: taskQueue }), text).toBeGreaterThan(0);
    expect(text).toContain('temporal_workflow_completed');
    // The product's.
    expect(total(text, 'evolution_reviewer_calls_total', { scope_mode: 'app' })).toBe(1);
    expect(total(text, 'evolution_reviewer_latency_milliseconds_count', { outcome: 'success' })).toBe(1);
    expect(total(text, 'evolution_candidates_seen_total', { action: 'create' })).toBe(1);
    expect(total(text, 'evolution_revisions_written_total', { scope_mode: 'app', action: 'create', status: 'pending_approval' })).toBe(1);
    expect(total(text, 'evolution_gate_verdicts_total', { gate: 'spec', verdict: 'passed' })).toBe(1);
    expect(total(text, 'evolution_gate_verdicts_total', { gate: 'safety', verdict: 'passed' })).toBe(1);
    expect(total(text, 'evolution_holds_total', { reason: 'pending_approval' })).toBe(1);
    expect(total(text, 'evolution_approvals_total', { outcome: 'published' })).toBe(1);
    expect(total(text, 'evolution_publications_total', { trigger: 'approve', outcome: 'published' })).toBe(1);
    expect(total(text, 'evolution_publication_latency_milliseconds_count', { trigger: 'approve' })).toBe(1);
    // Low cardinality: no app, skill or revision names in any label.
    expect(text).not.toContain(app);
    expect(text).not.toContain('multi-city-weather-report');
    expect(text).not.toContain(rev!.revisionId);

    // Structured logs: stderr is a pipe here, so every log line is JSON; workflow and activity ids are fields.
    const logLines = worker
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    const entries = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.every((e) => typeof e.time === 'string' && typeof e.level === 'string' && typeof e.message === 'string')).toBe(true);
    expect(entries.some((e) => e.jobId === started.jobWorkflowId)).toBe(true);
    expect(entries.some((e) => e.revisionId === rev!.revisionId)).toBe(true);
  });

  it('SIGTERM drains the worker: the in-flight reviewer call finishes, then the process exits 0', async () => {
    const store = createSkillStore(config.s3);
    const events = slowReviewSession(4000);
    const started = await startLearningJob({ client: temporal.client, store, config }, { app: uniqueName('drain-app'), user: 'u1', sessionId: 's1', events });
    const job = temporal.client.workflow.getHandle(started.jobWorkflowId);
    // Wait until the (slow) model call is running on this worker.
    for (;;) {
      // The session entity starts the job as its child: until then the job is not found.
      const raw = await job.describe().then(
        (d) => d.raw,
        () => undefined,
      );
      if (raw?.pendingActivities?.some((a) => a.activityType?.name === 'reviewSession' && a.state === temporal_.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED))
        break;
      await new Promise((r) => setTimeout(r, 100));
    }

    await worker.kill('SIGTERM');
    expect(worker.child.signalCode).toBeNull();
    expect(worker.child.exitCode).toBe(0);
    // The attempt in flight completed during the drain instead of being abandoned to a timeout.
    const history = await job.fetchHistory();
    const completed = (history.events ?? []).filter((e) => e.activityTaskCompletedEventAttributes);
    expect(completed).toHaveLength(1); // reviewSession (prepareReview is a local activity before it)
    // Every line the process wrote, from start to drain, is a JSON log entry: the SDK core's
    // own lines and the worker's start-up line included.
    const lines = worker
      .output()
      .split('\n')
      .filter((l) => l.trim() !== '');
    const notJson = lines.filter((l) => {
      try {
        return typeof (JSON.parse(l) as { message?: unknown }).message !== 'string';
      } catch {
        return true;
      }
    });
    expect(notJson, worker.output()).toEqual([]);
    expect(lines.some((l) => l.includes('polling task queue'))).toBe(true);
    await job.terminate('test over: no worker left to finish the job');
  });
});
