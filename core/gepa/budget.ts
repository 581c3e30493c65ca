/**
 * Metric-call accounting. One metric call = one case evaluated once (a candidate on
 * a case; the same case under two candidates counts twice). Rules, as in the
 * reference engine:
 *
 * 1. The Holdout reserve, 2 × |Holdout| (seed and winner under one paired seed), is
 *    set aside before anything is spent.
 * 2. The experiment may start only if seed Validation + reserve fit: |V| + 2|H| ≤ max.
 * 3. An iteration may start only if its worst case fits beside the reserve:
 *    used + (2 × minibatch + |V|) + 2|H| ≤ max, where minibatch = min(batch size, |F|)
 *    and the worst case is parent minibatch + child minibatch + child Validation.
 *    A rejected iteration spends less; the check is still for the worst case, so
 *    an accepted child can always be validated.
 * 4. The iteration limit is checked first (stop reason max_iterations), then the
 *    budget (metric_budget).
 * 5. Holdout spends |H| for the seed plus |H| for the winner when it is not the
 *    seed (a seed winner reuses the seed's scores), always within the reserve.
 * 6. A selection method that evaluates after search (multi_seed) has its calls set
 *    aside too (`selectionReserve`), exactly like the Holdout reserve.
 * Hence the total never exceeds maxMetricCalls; `spendMetricCalls` enforces it.
 */

export interface MetricBudget {
  max: number;
  used: number;
  /** Calls set aside for the final Holdout comparison. */
  holdoutReserve: number;
  /** Worst-case calls of one iteration: 2 × minibatch + |Validation|. */
  iterationCost: number;
  /** Calls set aside for post-search selection (multi_seed); absent in states of older runs. */
  selectionReserve?: number;
}

export type SpendPhase = 'search' | 'selection' | 'holdout';

export interface BudgetShape {
  maxMetricCalls: number;
  feedbackSize: number;
  validationSize: number;
  holdoutSize: number;
  reflectionBatchSize: number;
  /** Post-search selection calls to set aside (default 0). */
  selectionReserve?: number;
}

export class MetricBudgetError extends Error {
  override name = 'MetricBudgetError';
}

export function holdoutReserve(holdoutSize: number): number {
  return 2 * holdoutSize;
}

export function minibatchSize(reflectionBatchSize: number, feedbackSize: number): number {
  return Math.min(reflectionBatchSize, feedbackSize);
}

/** The budget before any spending; throws if seed Validation plus the Holdout reserve cannot fit. */
export function planBudget(shape: BudgetShape): MetricBudget {
  const reserve = holdoutReserve(shape.holdoutSize);
  const selection = shape.selectionReserve ?? 0;
  if (shape.validationSize + reserve + selection > shape.maxMetricCalls) {
    throw new MetricBudgetError(
      `maxMetricCalls ${shape.maxMetricCalls} cannot cover seed validation (${shape.validationSize} calls) ` +
        `plus the holdout reserve (${reserve} calls = 2 × ${shape.holdoutSize} holdout cases)` +
        (selection > 0 ? ` plus the selection reserve (${selection} calls)` : ''),
    );
  }
  return {
    max: shape.maxMetricCalls,
    used: 0,
    holdoutReserve: reserve,
    iterationCost: 2 * minibatchSize(shape.reflectionBatchSize, shape.feedbackSize) + shape.validationSize,
    ...(selection > 0 ? { selectionReserve: selection } : {}),
  };
}

/** Everything set aside for after the search: Holdout, and post-search selection. */
export function reservedCalls(budget: MetricBudget): number {
  return budget.holdoutReserve + (budget.selectionReserve ?? 0);
}

/** Rule 3: the worst case of one more iteration fits beside the Holdout reserve. */
export function canStartIteration(budget: MetricBudget): boolean {
  return budget.used + budget.iterationCost + reservedCalls(budget) <= budget.max;
}

/** Rule 4: why the search must stop before iteration number `completedIterations`, or undefined to go on. */
export function searchStopReason(budget: MetricBudget, completedIterations: number, maxIterations: number): 'max_iterations' | 'metric_budget' | undefined {
  if (completedIterations >= maxIterations) return 'max_iterations';
  if (!canStartIteration(budget)) return 'metric_budget';
  return undefined;
}

/**
 * Records `calls` evaluations. During search (the default) the reserves are
 * untouchable; the `selection` phase may use its own reserve, the `holdout` phase
 * everything. Overspending is a bug in the caller, so it throws.
 */
export function spendMetricCalls(budget: MetricBudget, calls: number, phase: SpendPhase = 'search'): MetricBudget {
  if (!Number.isInteger(calls) || calls < 0) throw new MetricBudgetError(`metric calls must be a non-negative integer, got ${calls}`);
  const limit = phase === 'search' ? budget.max - reservedCalls(budget) : phase === 'selection' ? budget.max - budget.holdoutReserve : budget.max;
  if (budget.used + calls > limit) {
    throw new MetricBudgetError(
      `spending ${calls} ${phase} metric calls would exceed the budget ` + `(${budget.used} of ${budget.max} used, ${budget.holdoutReserve} reserved for holdout)`,
    );
  }
  return { ...budget, used: budget.used + calls };
}

/** Holdout calls still to spend: the seed always, the winner unless it is the seed. */
export function holdoutCalls(holdoutSize: number, winnerIsSeed: boolean): number {
  return winnerIsSeed ? holdoutSize : 2 * holdoutSize;
}
