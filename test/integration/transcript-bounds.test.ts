import { describe, expect, it } from 'vitest';
import { InputError } from '../../core/errors';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { INPUT_LIMITS, scopeKey, type Segment, type SessionEvent } from '../../core';
import { NON_RETRYABLE } from '../../core/failure-types';
import { learningJobWorkflowId, malformedSegmentJobTarget, sessionWorkflowId } from '../../core/workflow-ids';
import { sessionWorkflow, submitSegmentSignal } from '../../workflows';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

// Issue 10, item 8: every field of a transcript is bounded, on the real stack.
const fx = useMainWorker({ humanGate: 'none', minToolCalls: 1 });

describe('transcript bounds cover every field', () => {
  it('a 5,000-character tool name and message name do not fail the review', async () => {
    const longTool = `lookup_${'x'.repeat(5000)}`;
    const events: SessionEvent[] = [
      { role: 'user', name: `n${'y'.repeat(5000)}`, content: 'Look up the order status and notify the customer.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: longTool, arguments: '{"order":"42"}' } },
          { id: 'c2', type: 'function', function: { name: 'notify_customer', arguments: '{"order":"42"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'shipped' },
      { role: 'tool', tool_call_id: 'c2', content: 'sent' },
      { role: 'assistant', content: 'Order 42 has shipped; the customer was notified.' },
    ];
    const started = await startLearningJob({ client: fx.w.client, store: fx.store, config: fx.config }, { app: uniqueName('bounds'), user: 'u1', sessionId: 's1', events });
    const outcome = await waitForLearningJob(fx.w, started.jobWorkflowId, { timeoutMs: 120_000 });
    expect(outcome.status, outcome.reason).toBe('reviewed');
    expect(outcome.revisions.length).toBeGreaterThan(0);
  });

  it('a 10,000-level content part is a clear input error at the client, and nothing is started', async () => {
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < 10_000; i++) deep = { inner: deep };
    const app = uniqueName('deep');
    const request = { app, user: 'u1', sessionId: 's1', events: [{ role: 'user', content: [{ type: 'data', data: deep }] }] };
    const err = await startLearningJob({ client: fx.w.client, store: fx.store, config: fx.config }, request).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/content part nested deeper than 16 levels/);
    const started = [];
    const key = scopeKey({ mode: fx.config.governance.defaultScopeMode, app, user: 'u1' });
    for await (const wf of fx.w.client.workflow.list({ query: `EvolutionScopeKey = "${key}"` })) started.push(wf.workflowId);
    expect(started).toEqual([]);
  });

  // Issue 31 item 5: one oversized segment fails its own job at once and the worker goes on.
  it('an 8 MB tool message is refused at the client before redaction, naming the field; nothing is started', async () => {
    const app = uniqueName('big');
    const events: SessionEvent[] = [
      { role: 'user', content: 'Export the table.' },
      { role: 'tool', tool_call_id: 'c1', content: 'row,1,2,3\n'.repeat(800_000) },
    ];
    const err = await startLearningJob({ client: fx.w.client, store: fx.store, config: fx.config }, { app, user: 'u1', sessionId: 's1', events }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/message content longer than 1000000 characters\n.*at events\[1\]\.content/);
  });

  it('segments a platform stored itself beyond the bounds (an 8 MB tool message, a 100 MB payload) fail their own jobs at once while a concurrent job completes', async () => {
    const app = uniqueName('bounds');
    const scope = scopeKey({ mode: fx.config.governance.defaultScopeMode, app, user: 'u1' });
    const started = startLearningJob({ client: fx.w.client, store: fx.store, config: fx.config }, { app, user: 'u1', sessionId: 'ok', events: exampleSession('weather-report') });

    const signal = async (sessionId: string, bytes: Uint8Array | string, declared: Partial<Segment> = {}) => {
      const payloadRef = await fx.store.putPayload(bytes);
      const segment = {
        segmentId: uniqueName('seg'),
        sessionId,
        app,
        user: 'u1',
        scopeMode: fx.config.governance.defaultScopeMode,
        scopeKey: scope,
        payloadRef,
        eventCount: 2,
        ...declared,
      };
      await fx.w.client.workflow.signalWithStart(sessionWorkflow, {
        workflowId: sessionWorkflowId(scope, sessionId),
        taskQueue: fx.w.taskQueue,
        args: [{}],
        signal: submitSegmentSignal,
        signalArgs: [segment as Segment],
      });
      return segment;
    };
    // The failure of a job the session starts (it may not exist yet when asked).
    const failureOf = async (workflowId: string) => {
      for (let attempt = 0; ; attempt++) {
        const failure = await fx.w.client.workflow
          .getHandle(workflowId)
          .result()
          .then(
            () => undefined,
            (e: Error & { cause?: { message?: string; type?: string; cause?: { message?: string; type?: string } } }) =>
              e.name === 'WorkflowNotFoundError' && attempt < 120 ? 'not yet' : (e.cause?.cause ?? e.cause),
          );
        if (failure !== 'not yet') return failure;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };

    // Stored raw, unredacted, by a platform: an 8 MB tool message inside a 8 MB payload (under the payload bound).
    const eightMb = JSON.stringify([
      { role: 'user', content: 'Export the table.' },
      { role: 'tool', tool_call_id: 'c1', content: 'row,1,2,3\n'.repeat(800_000) },
    ]);
    const bigMessage = await signal('big-message', eightMb);
    // A 100 MB payload, stored: the worker never reads it (the segment's own size refuses it).
    const hundredMb = new Uint8Array(100 * 1024 * 1024).fill(0x20);
    hundredMb.set(new TextEncoder().encode('[{"role":"user","content":"'), 0);
    hundredMb.set(new TextEncoder().encode('"}]'), hundredMb.length - 3);
    const huge = await signal('huge', hundredMb);
    expect(huge.payloadRef.bytes).toBeGreaterThan(INPUT_LIMITS.maxPayloadBytes);

    const bigFailure = await failureOf(learningJobWorkflowId({ scopeKey: scope, sessionId: 'big-message', segmentId: bigMessage.segmentId }));
    expect(bigFailure).toMatchObject({ type: NON_RETRYABLE.inputTooLarge });
    expect(bigFailure?.message).toMatch(/1\.content: message content longer than 1000000 characters \(input bounds/);

    const hugeJob = malformedSegmentJobTarget(sessionWorkflowId(scope, 'huge'), huge).workflowId;
    const hugeFailure = await failureOf(hugeJob);
    expect(hugeFailure?.message).toMatch(/segment\.payloadRef\.bytes: expected an integer >= 0 and <= 16777216, got 104857600/);

    // The worker was never blocked: the ordinary job of the same scope is reviewed.
    const outcome = await waitForLearningJob(fx.w, (await started).jobWorkflowId, { timeoutMs: 120_000 });
    expect(outcome.status, outcome.reason).toBe('reviewed');
  });
});
