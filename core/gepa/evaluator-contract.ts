/** Names of the evaluator contract (docs/evaluator-contract.md), shared by workflows, activities and evaluators. */
export const EVALUATE_ACTIVITY_NAME = 'evaluateCandidate';
/** Optional: without it, evaluations are never cached and revisions never re-certified. */
export const DESCRIBE_ACTIVITY_NAME = 'describeEvaluator';
/** Failure type an evaluator uses for input it can never evaluate (not retried). */
export const INVALID_EVALUATOR_INPUT = 'InvalidEvaluatorInput';
/** Failure type every SDK's worker gives an activity type it does not register (TypeScript, Python, Go, Java). */
export const ACTIVITY_NOT_REGISTERED = 'NotFoundError';
