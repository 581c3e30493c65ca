/** Failure types that activities raise and workflows tell apart (one name, both sides). */

/** A model call that got an answer, just not a usable one (malformed, refused, timed out). */
export const MODEL_ANSWER_FAILURE = 'ModelAnswerFailure';

/** A workflow started with an input it cannot run. */
export const INVALID_WORKFLOW_INPUT = 'InvalidWorkflowInput';
