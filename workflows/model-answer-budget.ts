import { ActivityFailure, ApplicationFailure, sleep } from '@temporalio/workflow';
import { MODEL_ANSWER_FAILURE } from '../core/failure-types';
import { reviewerModelAnswers } from './retry-policies';

function isModelAnswerFailure(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === MODEL_ANSWER_FAILURE;
}

/**
 * Calls a model activity until it returns, spending one of `budget.attempts` only on a
 * model answer that could not be used; the activity's own retry policy handles
 * infrastructure faults. The last failure is rethrown.
 */
export async function withinModelAnswerBudget<T>(call: () => Promise<T>, budget = reviewerModelAnswers): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= budget.attempts || !isModelAnswerFailure(err)) throw err;
      await sleep(Math.min(budget.maximumIntervalMs, budget.initialIntervalMs * budget.backoffCoefficient ** (attempt - 1)));
    }
  }
}
