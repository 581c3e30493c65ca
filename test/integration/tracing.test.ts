import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { bundleWorkflowCode, DefaultLogger, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkillStore } from '../../storage';
import { connectTemporal, type Connected } from '../../runtime/connection';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import type { EvolutionConfig } from '../../core';
import { quietRuntime } from '../../workers/in-process';
import { startTracing, type Tracing } from '../../runtime/tracing/otel';
import { TRACING_WORKFLOW_INTERCEPTORS } from '../../runtime/tracing/from-env';
import { createMainWorker, WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from '../../workers/worker';
import { realServices, uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';

/**
 * One trace follows a segment: the client's start, the session workflow, the learning job
 * and its activities — exported here to the OpenTelemetry SDK's in-memory exporter.
 */
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let config: EvolutionConfig;
let worker: Worker;
let running: Promise<void>;
let closeWorker: (() => Promise<void>) | undefined;
let temporal: Connected;

beforeAll(async () => {
  quietRuntime();
  tracing = startTracing(new SimpleSpanProcessor(exporter), 'evolution-test');
  const base = await realServices();
  config = {
    ...base,
    temporal: { ...base.temporal, taskQueue: uniqueName('tq-trace') },
    governance: { ...base.governance, humanGate: 'create_only', approvalTimeoutMs: undefined, shadowMode: false },
  };
  const workflowBundle = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    workflowInterceptorModules: [...WORKFLOW_INTERCEPTOR_MODULES, TRACING_WORKFLOW_INTERCEPTORS],
    logger: new DefaultLogger('WARN'),
  });
  ({ worker, close: closeWorker } = await createMainWorker({ config, workflowBundle, tracing }));
  running = worker.run();
  temporal = await connectTemporal(config);
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await closeWorker?.();
  await temporal?.close();
  await tracing?.shutdown();
});

describe('tracing', () => {
  it('one trace from startLearningJob through the session, the learning job and its activities', async () => {
    const app = uniqueName('trace-app');
    const store = createSkillStore(config.s3);
    const started = await startLearningJob({ client: temporal.client, store, config }, { app, user: 'u1', sessionId: 's1', events: exampleSession('weather-report') });
    await waitForLearningJob({ client: temporal.client, store }, started.jobWorkflowId);
    await tracing.spanProcessor.forceFlush();

    const spans = exporter.getFinishedSpans();
    const names = (s: ReadableSpan[]) => [...new Set(s.map((x) => x.name))].sort();
    const root = spans.find((s) => /^(SignalWithStartWorkflow|StartWorkflow):sessionWorkflow$/.test(s.name));
    expect(root, `client span missing; spans: ${names(spans).join(', ')}`).toBeDefined();
    const trace = spans.filter((s) => s.spanContext().traceId === root!.spanContext().traceId);
    const inTrace = names(trace);
    // The session and approval workflows are still running (their RunWorkflow spans end with
    // them); their work so far is in the trace.
    expect(inTrace).toContain('HandleSignal:submitSegment');
    expect(inTrace).toContain('StartChildWorkflow:learningJobWorkflow');
    expect(inTrace.some((n) => /learningJobWorkflow/.test(n) && n.startsWith('RunWorkflow'))).toBe(true);
    expect(inTrace).toContain('RunActivity:reviewSession');
    expect(inTrace).toContain('RunActivity:recordRevision');
    expect(inTrace).toContain('StartChildWorkflow:approvalWorkflow');
    const job = trace.find((x) => x.name === 'RunWorkflow:learningJobWorkflow')!;
    const review = trace.find((x) => x.name === 'RunActivity:reviewSession')!;
    expect(review.parentSpanId).toBe(trace.find((x) => x.name === 'StartActivity:reviewSession')!.spanContext().spanId);
    expect(trace.find((x) => x.name === 'StartActivity:reviewSession')!.parentSpanId).toBe(job.spanContext().spanId);
    expect(trace.every((s) => s.resource.attributes['service.name'] === 'evolution-test')).toBe(true);
  });
});
