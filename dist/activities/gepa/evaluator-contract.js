"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.INVALID_EVALUATOR_INPUT = exports.EVALUATE_ACTIVITY_NAME = void 0;
/**
 * The application's evaluator activity (docs/evaluator-contract.md). It runs on the
 * application's own task queue, in any Temporal SDK; the experiment workflow only knows
 * its name and JSON shapes (EvaluateActivityInputSchema / EvaluateActivityOutputSchema).
 */
exports.EVALUATE_ACTIVITY_NAME = 'evaluateCandidate';
/** Failure type an evaluator uses for input it can never evaluate (not retried). */
exports.INVALID_EVALUATOR_INPUT = 'InvalidEvaluatorInput';
//# sourceMappingURL=evaluator-contract.js.map