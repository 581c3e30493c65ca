import type { EvaluateActivityInput, EvaluateActivityOutput, EvaluatorDescription } from '../../core';

export { ACTIVITY_NOT_REGISTERED, INVALID_EVALUATOR_INPUT } from '../../core/gepa/evaluator-contract';

/**
 * The application's evaluator activities (docs/evaluator-contract.md). They run on the
 * application's own task queue, in any Temporal SDK; the experiment workflow only knows
 * their names and JSON shapes (EvaluateActivityInputSchema / EvaluateActivityOutputSchema /
 * EvaluatorDescriptionSchema).
 */
export interface EvaluatorActivities {
  evaluateCandidate(input: EvaluateActivityInput): Promise<EvaluateActivityOutput>;
  describeEvaluator(): Promise<EvaluatorDescription>;
}
