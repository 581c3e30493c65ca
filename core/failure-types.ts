/**
 * Failure types: the `type` of an ApplicationFailure that activities raise and workflows tell
 * apart, and that the retry policies list. Each name is spelled here only.
 */

/** Activity failures that no retry can fix: raised non-retryable, and listed by the retry policies. */
export const NON_RETRYABLE = {
  /** A storage error no retry fixes (a malformed object, a conflicting create-only write). */
  store: 'NonRetryableStoreError',
  scope: 'ScopeError',
  segment: 'InvalidSegmentError',
  /** A segment beyond the input bounds (core/input-limits.ts): fails its own job before anything is read or redacted. */
  inputTooLarge: 'InputTooLargeError',
  rollback: 'RollbackError',
  import: 'ImportError',
  experimentRequest: 'InvalidExperimentRequest',
  dataset: 'DatasetNotFound',
  experimentRecord: 'ExperimentRecordConflict',
  experimentNotStarted: 'ExperimentNotStarted',
  /** An evaluation run id reused with other settings, or a family the worker does not know. */
  evaluationRun: 'EvaluationRunRefused',
} as const;

/** A bug in an activity, not a fault that a retry fixes: fails at once. */
export const PROGRAMMING_ERRORS = ['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError'] as const;

/** A model answer that is malformed (not JSON, not the schema): retried, each attempt a new answer. */
export const MALFORMED_MODEL_ANSWER = 'MalformedModelAnswer';

/** A model call that got an answer, just not a usable one (malformed, refused, timed out), after its attempts. */
export const MODEL_ANSWER_FAILURE = 'ModelAnswerFailure';

/** A workflow started with an input it cannot run. */
export const INVALID_WORKFLOW_INPUT = 'InvalidWorkflowInput';

/** The evaluator was given an input it cannot evaluate (docs/evaluator-contract.md): not retried. */
export const INVALID_EVALUATOR_INPUT = 'InvalidEvaluatorInput';

/** What every SDK's worker answers for an activity type it does not register (TypeScript, Python, Go, Java). */
export const ACTIVITY_NOT_REGISTERED = 'NotFoundError';

/** The evaluator answered against its contract (docs/evaluator-contract.md): the batch fails. */
export const EVALUATOR_CONTRACT_ERROR = 'EvaluatorContractError';
