import type { ActivityOptions, RetryPolicy } from '@temporalio/common';
import { INVALID_EVALUATOR_INPUT, INVALID_WORKFLOW_INPUT, MODEL_ANSWER_FAILURE, NON_RETRYABLE, PROGRAMMING_ERRORS } from '../core/failure-types';

/**
 * The retry policies of every activity the workflows call: each is bounded (but the scope
 * index's, below), and an unexpected programming error (a TypeError in an activity is a bug, not a fault that a
 * retry fixes) fails at once.
 */

/** Activity failure types that no retry can fix (core/failure-types.ts). */
const PERMANENT = [...Object.values(NON_RETRYABLE), INVALID_WORKFLOW_INPUT, ...PROGRAMMING_ERRORS];

/** Short S3 reads and writes: about five minutes of backoff covers a storage restart. */
export const storageRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  maximumAttempts: 15,
  nonRetryableErrorTypes: PERMANENT,
};

/**
 * How long work that follows a decision (a reviewer's answer, an approval, a rollback, a GEPA
 * submission) waits out storage, index or Temporal outages when nothing says otherwise
 * (EVOLUTION_STORAGE_OUTAGE_TOLERANCE): a day, long enough for an operator to restore the store.
 */
export const DEFAULT_STORAGE_OUTAGE_TOLERANCE_MS = 24 * 60 * 60_000;

/**
 * Work that follows a decision: the decision was paid for (a model call, a person), so an
 * infrastructure failure is waited out instead of failing the job and discarding it.
 * Capped backoff, as many attempts as fit in the tolerance (scheduleToCloseTimeout bounds
 * it), retried by the server between attempts — no workflow task, no history event per attempt.
 */
export const decidedWorkRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  nonRetryableErrorTypes: PERMANENT,
};

/** Task-queue activity options for work that follows a decision (see decidedWorkRetry). */
export function decidedWorkOptions(toleranceMs: number | undefined, opts: { heartbeat?: boolean } = {}): ActivityOptions {
  return {
    startToCloseTimeout: '2 minutes',
    scheduleToCloseTimeout: toleranceMs ?? DEFAULT_STORAGE_OUTAGE_TOLERANCE_MS,
    ...(opts.heartbeat ? { heartbeatTimeout: '15 seconds' } : {}),
    retry: decidedWorkRetry,
  };
}

/**
 * The scope index's writes (a burst, a reconcile): the exception to "bounded". The index
 * must follow the pointers eventually, and the index workflow has nothing else to do; a
 * publisher waiting for it gives up after 30 s.
 */
export const indexBurstRetry: RetryPolicy = { initialInterval: '500 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: [NON_RETRYABLE.store] };
/** A burst's attempts inside a workflow task (a few seconds), before it becomes a task-queue activity. */
export const indexBurstLocalRetry: RetryPolicy = {
  initialInterval: '200 milliseconds',
  maximumInterval: '1 second',
  maximumAttempts: 3,
  nonRetryableErrorTypes: [NON_RETRYABLE.store],
};
/** A usage burst's attempts inside a workflow task (a few seconds), before it becomes a task-queue activity that waits out the outage (decidedWorkOptions). */
export const usageBurstLocalRetry: RetryPolicy = { initialInterval: '200 milliseconds', maximumInterval: '1 second', maximumAttempts: 3, nonRetryableErrorTypes: PERMANENT };
export const indexReconcileRetry: RetryPolicy = { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [NON_RETRYABLE.store] };

/**
 * An evaluation run's activities (a case: the agent's model calls and S3; an arm's setup):
 * a few attempts with backoff, then the run fails visibly; started again it resumes from
 * its records.
 */
export const evaluationRetry: RetryPolicy = {
  initialInterval: '2 seconds',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 5,
  nonRetryableErrorTypes: PERMANENT,
};

/**
 * A model call (reviewer, reflector): a few attempts, since each attempt is a model
 * answer (malformed, refused, timed out) and the job ends visibly after them.
 */
export const modelCallRetry: RetryPolicy = {
  initialInterval: '2 seconds',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  maximumAttempts: 3,
  nonRetryableErrorTypes: PERMANENT,
};

/** The application's evaluator (docs/evaluator-contract.md): three attempts. */
export const evaluatorRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  maximumAttempts: 3,
  nonRetryableErrorTypes: [INVALID_EVALUATOR_INPUT, ...PROGRAMMING_ERRORS],
};

/**
 * The reviewer's budget of model answers (malformed, refused, timed out): three, with
 * backoff between them; then the job ends `reviewer_failed` and the cursor stays.
 */
export const reviewerModelAnswers = { attempts: 3, initialIntervalMs: 2_000, backoffCoefficient: 2, maximumIntervalMs: 30_000 };

/**
 * Infrastructure faults around the reviewer's model call (the transcript read from S3, a
 * dead worker's heartbeat timeout, an unreachable model server) are retried with backoff
 * within the job's deadline, without spending the model's answers.
 */
export const reviewerInfrastructureRetry: RetryPolicy = {
  initialInterval: '2 seconds',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  maximumAttempts: 100,
  nonRetryableErrorTypes: [MODEL_ANSWER_FAILURE, ...PERMANENT],
};
/** How long the reviewer step may take in all, infrastructure retries included. */
export const REVIEWER_DEADLINE = '30 minutes';
