import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { sessionWorkflowId } from '../../core/workflow-ids';
import { shortHash } from '../../core/skills/hash';
import { scopeKey as scopeKeyOf } from '../../core';
import { sessionWorkflow, submitSegmentSignal } from '../../workflows';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

// Issue 10 item 2: a malformed segment fails its own job visibly; the session entity
// goes on with the next segment. Real dev server, S3, model server, main worker.
const fx = useMainWorker();

describe('a bad segment never wedges its session', () => {
  it('a segment with an invalid scope key, then a valid one on the same session: the valid one is reviewed', async () => {
    const app = uniqueName('app');
    const sessionId = uniqueName('s');
    const scopeKey = scopeKeyOf({ mode: 'app', app });
    const sessionWfId = sessionWorkflowId(scopeKey, sessionId);
    const bad = { segmentId: 'bad-1', sessionId, app, user: 'u1', scopeMode: 'app', scopeKey: '../not/a scope', payloadRef: { sha256: 'zz', bytes: 1 }, eventCount: 1 };
    await fx.w.client.workflow.signalWithStart(sessionWorkflow, {
      workflowId: sessionWfId,
      taskQueue: fx.w.taskQueue,
      args: [{}],
      signal: submitSegmentSignal,
      signalArgs: [bad as never],
    });

    const started = await startLearningJob(
      { client: fx.w.client, store: fx.store, config: fx.config },
      { app, user: 'u1', sessionId, scopeMode: 'app', events: exampleSession('weather-report') },
    );
    expect(started.sessionWorkflowId).toBe(sessionWfId);
    const outcome = await waitForLearningJob(fx.w, started.jobWorkflowId, { timeoutMs: 120_000 });
    expect(outcome).toMatchObject({ status: 'reviewed', cursorAdvanced: true });
    expect(outcome.revisions.length).toBeGreaterThan(0);

    // The bad segment's own job ran under this session and failed, naming the field.
    const badJob = fx.w.client.workflow.getHandle(`learning/${scopeKey}/${sessionId}/invalid-${shortHash(JSON.stringify(bad))}`);
    const described = await badJob.describe();
    expect(described.status.name).toBe('FAILED');
    expect(described.searchAttributes.EvolutionScopeKey).toEqual([scopeKey]);
    const error = await badJob.result().then(
      () => undefined,
      (e: { cause?: { message?: string } }) => e.cause?.message,
    );
    expect(error).toMatch(/invalid learning job workflow input: segment\.scopeKey: expected a scope key/);
  });
});
