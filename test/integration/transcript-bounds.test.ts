import { describe, expect, it } from 'vitest';
import { InputError } from '../../core/errors';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { scopeKey, type SessionEvent } from '../../core';
import { uniqueName } from '../support/infra';
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
});
