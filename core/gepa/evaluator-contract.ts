/** The contract's failure types (core/failure-types.ts). */
export { ACTIVITY_NOT_REGISTERED, INVALID_EVALUATOR_INPUT } from '../failure-types';
