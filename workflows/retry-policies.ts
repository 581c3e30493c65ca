import type { RetryPolicy } from '@temporalio/common';

/**
 * The retry policies of every activity the workflows call: each is bounded, and an
 * unexpected programming error (a TypeError in an activity is a bug, not a fault that a
 * retry fixes) fails at once.
 */
export const PROGRAMMING_ERRORS = ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'] as const;

/** Activity failure types that no retry can fix (see activities/errors.ts). */
const PERMANENT = ['NonRetryableStoreError', 'ScopeError', 'InvalidSegmentError', 'RollbackError', 'InvalidWorkflowInput', ...PROGRAMMING_ERRORS];
const GEPA_PERMANENT = ['InvalidExperimentRequest', 'DatasetNotFound', 'ExperimentRecordConflict', 'ExperimentNotStarted'];

/** Short S3 reads and writes: about five minutes of backoff covers a storage restart. */
export const storageRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  maximumAttempts: 15,
  nonRetryableErrorTypes: [...PERMANENT, ...GEPA_PERMANENT],
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
  nonRetryableErrorTypes: [...PERMANENT, ...GEPA_PERMANENT],
};

/** The application's evaluator (docs/evaluator-contract.md): three attempts. */
export const evaluatorRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  maximumAttempts: 3,
  nonRetryableErrorTypes: ['InvalidEvaluatorInput', ...PROGRAMMING_ERRORS],
};
