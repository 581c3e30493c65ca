import { ChildWorkflowFailure, condition, continueAsNew, executeChild, setHandler, workflowInfo, WorkflowIdReusePolicy } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { IndexedPublication, Segment } from '../core';
import { learningJobWorkflowId, malformedSegmentJobTarget } from '../core/workflow-ids';
import { publicationsOf } from '../core/governance/published';
import { checkSegment, checkSessionInput } from '../core/workflow-inputs';
import { requireValidInput } from './input-guard';
import type { learningJobWorkflow } from './learning-job';
import { LEARNING_JOB_WORKFLOW, sessionStateQuery, submitSegmentSignal, type SessionInput, type SessionState } from '../core/workflow-api/session';
import { searchAttributes } from '../core/search-attributes';

export { sessionStateQuery, submitSegmentSignal, type SessionInput, type SessionState };

const SEEN_LIMIT = 500;
const SEGMENTS_PER_RUN = 200;

/**
 * One entity per session (`session/{scopeKey}/{sessionId}`, reached by signal-with-start):
 * runs the session's learning jobs strictly in order, one child workflow per segment.
 * Completes when idle; continues-as-new before its history grows large.
 */
export async function sessionWorkflow(input: SessionInput = {}): Promise<SessionState> {
  requireValidInput('session', checkSessionInput(input));
  const queue: Segment[] = [...(input.queue ?? [])];
  const seen: string[] = [...(input.seen ?? [])];
  const state: SessionState = { queued: queue.length, processed: 0 };
  // The next job's review waits for the index to include what the last job published.
  let indexedBefore: IndexedPublication[] = [...(input.indexedBefore ?? [])];

  setHandler(submitSegmentSignal, (segment) => {
    // A malformed segment is queued too: its own job fails visibly, the session goes on.
    const id = segmentIdOf(segment);
    if (id !== undefined && (seen.includes(id) || queue.some((s) => segmentIdOf(s) === id))) return;
    queue.push(segment);
    state.queued = queue.length;
  });
  setHandler(sessionStateQuery, () => state);

  for (;;) {
    const hasWork = await condition(() => queue.length > 0, input.idleTimeoutMs ?? 10 * 60_000);
    if (!hasWork) return state;
    if (state.processed >= SEGMENTS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof sessionWorkflow>({ ...input, queue, seen, indexedBefore });
    }
    const segment = queue.shift()!;
    state.queued = queue.length;
    state.current = segmentIdOf(segment);
    if (state.current !== undefined) seen.push(state.current);
    if (seen.length > SEEN_LIMIT) seen.splice(0, seen.length - SEEN_LIMIT);
    const { outcome, published } = await runJob(segment, indexedBefore);
    state.lastOutcome = outcome;
    indexedBefore = published;
    state.current = undefined;
    state.processed++;
  }
}

function segmentIdOf(segment: unknown): string | undefined {
  const id = (segment as { segmentId?: unknown } | null | undefined)?.segmentId;
  return typeof id === 'string' ? id : undefined;
}

/** The job's workflow id and scope key (a malformed segment's job runs under this session). */
function jobTargetFor(segment: Segment): { workflowId: string; scopeKey: string } {
  const problems: string[] = [];
  checkSegment(problems, 'segment', segment);
  if (problems.length === 0) return { workflowId: learningJobWorkflowId(segment), scopeKey: segment.scopeKey };
  return malformedSegmentJobTarget(workflowInfo().workflowId, segment);
}

async function runJob(segment: Segment, indexedBefore: IndexedPublication[]): Promise<{ outcome: SessionState['lastOutcome']; published: IndexedPublication[] }> {
  const { workflowId, scopeKey } = jobTargetFor(segment);
  try {
    const outcome = await executeChild<typeof learningJobWorkflow>(LEARNING_JOB_WORKFLOW, {
      workflowId,
      args: [{ segment, ...(indexedBefore.length ? { indexedBefore } : {}) }],
      // The same segment submitted again after its job finished is not reviewed twice.
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      // The jobs of a scope are one visibility query (core scopeQuery).
      searchAttributes: searchAttributes({ kind: 'learning-job', scopeKey }),
    });
    return { outcome: { jobId: outcome.jobId, status: outcome.status, reason: outcome.reason }, published: publicationsOf(outcome) };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError)
      return { outcome: { jobId: workflowId, status: 'duplicate', reason: 'segment was already submitted' }, published: indexedBefore };
    // A failed job must not stop later segments; its cursor did not advance.
    if (err instanceof ChildWorkflowFailure) return { outcome: { jobId: workflowId, status: 'failed', reason: err.cause?.message ?? err.message }, published: indexedBefore };
    throw err;
  }
}
