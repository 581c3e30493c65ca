import { describe, expect, it } from 'vitest';
import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { uniqueName } from '../support/infra';
import { useMainWorker } from '../support/worker';
import { VALID_BATCH, VALID_SEGMENT } from '../support/workflow-inputs';

// Issue 10 item 1: every workflow, started directly through the Temporal client with a
// hostile input, fails at once (non-retryable) naming the field — no workflow task that
// fails and retries forever. Real dev server, real main worker.
const fx = useMainWorker();

/** [workflow type, args, the field the message must name] */
const CASES: [string, unknown[], RegExp][] = [
  ['sessionWorkflow', [null], /input: expected an object, got null/],
  ['sessionWorkflow', ['text'], /input: expected an object, got a string/],
  ['sessionWorkflow', [{ queue: 'x' }], /queue: expected an array/],
  ['sessionWorkflow', [{ queue: [{}] }], /queue\[0\]\.segmentId: expected a non-empty string, got missing/],
  ['sessionWorkflow', [{ idleTimeoutMs: 'soon' }], /idleTimeoutMs: expected a finite number/],
  ['sessionWorkflow', [{ seen: [1] }], /seen\[0\]/],
  ['learningJobWorkflow', [], /input: expected an object, got missing/],
  ['learningJobWorkflow', [null], /input: expected an object, got null/],
  ['learningJobWorkflow', [{}], /segment: expected an object, got missing/],
  ['learningJobWorkflow', [{ segment: { ...VALID_SEGMENT, sessionId: 42 } }], /segment\.sessionId: expected a non-empty string, got a number/],
  ['learningJobWorkflow', [{ segment: { ...VALID_SEGMENT, scopeKey: '../../etc' } }], /segment\.scopeKey: expected a scope key/],
  ['learningJobWorkflow', [{ segment: { ...VALID_SEGMENT, payloadRef: null } }], /segment\.payloadRef: expected an object, got null/],
  ['approvalWorkflow', [], /input: expected an object, got missing/],
  ['approvalWorkflow', [null], /input: expected an object, got null/],
  ['approvalWorkflow', [{}], /revision: expected an object, got missing/],
  ['approvalWorkflow', [{ revision: { scopeKey: 'apps/a', skillId: 7, revisionId: 'r' } }], /revision\.skillId: expected a non-empty string, got a number/],
  ['approvalWorkflow', [{ revision: { scopeKey: 'apps/a', skillId: 's', revisionId: 'r' }, timeoutMs: 'soon' }], /timeoutMs: expected a finite number/],
  ['rollbackWorkflow', [], /input: expected an object, got missing/],
  ['rollbackWorkflow', [null], /input: expected an object, got null/],
  ['rollbackWorkflow', [{}], /scopeKey: expected a non-empty string, got missing/],
  ['rollbackWorkflow', [{ scopeKey: 'apps/a', skillId: 's', reviewer: 5 }], /reviewer: expected a non-empty string, got a number/],
  ['importSkillWorkflow', [], /input: expected an object, got missing/],
  ['importSkillWorkflow', [{ scopeKey: 'apps/a', skillId: 's', revisionId: 'r' }], /spec: expected an object, got missing/],
  ['experimentWorkflow', [], /input: expected an object, got missing/],
  ['experimentWorkflow', [null], /input: expected an object, got null/],
  ['experimentWorkflow', [{}], /request: expected an object, got missing/],
  ['experimentWorkflow', [{ request: [] }], /request: expected an object, got an array/],
  ['experimentWorkflow', [{ request: {} }], /invalid experiment request: .*seed/],
  ['experimentWorkflow', [{ continued: { context: null } }], /continued\.context: expected an object, got null/],
  ['evaluationBatchWorkflow', [], /input: expected an object, got missing/],
  ['evaluationBatchWorkflow', [null], /input: expected an object, got null/],
  ['evaluationBatchWorkflow', [{}], /experimentId: expected a non-empty string, got missing/],
  ['evaluationBatchWorkflow', [{ ...VALID_BATCH, seed: 'x' }], /seed: expected an integer/],
  ['evaluationBatchWorkflow', [{ ...VALID_BATCH, evaluator: { taskQueue: 'q', chunkSize: 0, concurrency: 1 } }], /evaluator\.chunkSize: expected an integer >= 1, got 0/],
];

describe('hostile workflow starts (real dev server, real worker)', () => {
  it('every workflow fails at once, without retry, with a message naming the bad field', async () => {
    const outcomes = await Promise.all(
      CASES.map(async ([type, args]) => {
        const handle = await fx.w.client.workflow.start(type, {
          taskQueue: fx.w.taskQueue,
          workflowId: uniqueName(`hostile-${type}`),
          args,
          // Only so a regression cannot leave workflows running forever on the shared server.
          workflowExecutionTimeout: '2 minutes',
        });
        return handle.result().then(
          () => undefined,
          (e: unknown) => e,
        );
      }),
    );
    CASES.forEach(([type, args, field], i) => {
      const err = outcomes[i];
      const label = `${type}(${JSON.stringify(args)})`;
      expect(err, label).toBeInstanceOf(WorkflowFailedError);
      const cause = (err as WorkflowFailedError).cause;
      expect(cause, label).toBeInstanceOf(ApplicationFailure);
      expect((cause as ApplicationFailure).nonRetryable, label).toBe(true);
      expect(cause!.message, label).toMatch(field);
    });
  });
});
