import type { EvaluateActivityInput, EvaluateActivityOutput } from '../../core';

/**
 * The application's evaluator activity (docs/evaluator-contract.md). It runs on the
 * application's own task queue, in any Temporal SDK; the experiment workflow only knows
 * its name and JSON shapes (EvaluateActivityInputSchema / EvaluateActivityOutputSchema).
 */
export const EVALUATE_ACTIVITY_NAME = 'evaluateCandidate';

export interface EvaluatorActivities {
  evaluateCandidate(input: EvaluateActivityInput): Promise<EvaluateActivityOutput>;
}

/** Failure type an evaluator uses for input it can never evaluate (not retried). */
export const INVALID_EVALUATOR_INPUT = 'InvalidEvaluatorInput';
