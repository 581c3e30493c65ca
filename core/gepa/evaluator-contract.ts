/** Names of the evaluator contract (docs/evaluator-contract.md), shared by workflows, activities and evaluators. */
export const EVALUATE_ACTIVITY_NAME = 'evaluateCandidate';
/** Optional: without it, evaluations are never cached and revisions never re-certified. */
export const DESCRIBE_ACTIVITY_NAME = 'describeEvaluator';
/** The contract's failure types (core/failure-types.ts). */
export { ACTIVITY_NOT_REGISTERED, INVALID_EVALUATOR_INPUT } from '../failure-types';
