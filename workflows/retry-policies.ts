import type { RetryPolicy } from '@temporalio/common';
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
 * The scope index's writes (a burst, a reconcile): the exception to "bounded". The index
 * must follow the pointers eventually, and the index workflow has nothing else to do; a
 * publisher waiting for it gives up after 30 s.
 */
export const indexBurstRetry: RetryPolicy = { initialInterval: '500 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: [NON_RETRYABLE.store] };
export const indexReconcileRetry: RetryPolicy = { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: [NON_RETRYABLE.store] };

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
