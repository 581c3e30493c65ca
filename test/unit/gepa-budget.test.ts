import { describe, expect, it } from 'vitest';
import { budgetStopReason, canStartIteration, holdoutCalls, MetricBudgetError, planBudget, spendMetricCalls, type MetricBudget } from '../../core/gepa';

const shape = { maxMetricCalls: 11, feedbackSize: 2, validationSize: 2, holdoutSize: 2, reflectionBatchSize: 2 };

describe('metric budget', () => {
  it('reserves 2 × holdout before search and prices an iteration at 2 × minibatch + validation', () => {
    const b = planBudget(shape);
    expect(b).toEqual({ max: 11, used: 0, holdoutReserve: 4, iterationCost: 6 });
    // The minibatch is capped by the feedback split.
    expect(planBudget({ ...shape, reflectionBatchSize: 5 }).iterationCost).toBe(2 * 2 + 2);
  });

  it('refuses to start when seed validation plus the holdout reserve cannot fit', () => {
    expect(() => planBudget({ ...shape, maxMetricCalls: 5 })).toThrow(MetricBudgetError);
    expect(() => planBudget({ ...shape, maxMetricCalls: 5 })).toThrow(/cannot cover seed validation \(2 calls\) plus the holdout reserve \(4 calls/);
    expect(() => planBudget({ ...shape, maxMetricCalls: 6 })).not.toThrow();
  });

  it('starts an iteration only if its worst case fits beside the reserve (reference scenario: 11 calls)', () => {
    // Seed validation 2 → used 2; an iteration needs 2 + 6 + 4 = 12 > 11: stop on metric_budget.
    const afterSeed = spendMetricCalls(planBudget(shape), 2);
    expect(canStartIteration(afterSeed)).toBe(false);
    expect(budgetStopReason(afterSeed, 0, 10)).toBe('metric_budget');
    // Then Holdout for a seed winner spends 2 more: 4 in total, as in the reference test.
    expect(spendMetricCalls(afterSeed, holdoutCalls(2, true), 'holdout').used).toBe(4);
    // One more call of budget and the iteration fits exactly.
    expect(canStartIteration(spendMetricCalls(planBudget({ ...shape, maxMetricCalls: 12 }), 2))).toBe(true);
  });

  it('checks the iteration limit before the budget', () => {
    const b = planBudget({ ...shape, maxMetricCalls: 1000 });
    expect(budgetStopReason(b, 10, 10)).toBe('max_iterations');
    expect(budgetStopReason(b, 9, 10)).toBeUndefined();
    expect(budgetStopReason({ ...b, used: 999 }, 10, 10)).toBe('max_iterations');
    expect(budgetStopReason(b, 0, 0)).toBe('max_iterations');
  });

  it('never lets search spend the holdout reserve, nor anything spend past the maximum', () => {
    const b: MetricBudget = { max: 20, used: 14, holdoutReserve: 4, iterationCost: 6 };
    expect(() => spendMetricCalls(b, 3)).toThrow(/would exceed the budget/);
    expect(spendMetricCalls(b, 2).used).toBe(16);
    expect(spendMetricCalls(b, 6, 'holdout').used).toBe(20);
    expect(() => spendMetricCalls(b, 7, 'holdout')).toThrow(MetricBudgetError);
    expect(() => spendMetricCalls(b, -1)).toThrow(/non-negative/);
  });

  it('keeps the worst-case total within maxMetricCalls for any shape', () => {
    for (const max of [20, 37, 64, 100, 257]) {
      for (const [v, h, batch, f] of [
        [5, 4, 3, 6],
        [8, 0, 2, 2],
        [3, 7, 5, 4],
      ]) {
        let b: MetricBudget;
        try {
          b = planBudget({ maxMetricCalls: max, feedbackSize: f, validationSize: v, holdoutSize: h, reflectionBatchSize: batch });
        } catch {
          expect(v + 2 * h).toBeGreaterThan(max);
          continue;
        }
        b = spendMetricCalls(b, v);
        let iterations = 0;
        while (!budgetStopReason(b, iterations, 1000)) {
          b = spendMetricCalls(b, b.iterationCost); // every iteration accepted: the most expensive path
          iterations++;
        }
        expect(budgetStopReason(b, iterations, 1000)).toBe('metric_budget');
        b = spendMetricCalls(b, holdoutCalls(h, false), 'holdout');
        expect(b.used).toBeLessThanOrEqual(max);
        // No further iteration could have fitted.
        expect(b.used - 2 * h + b.iterationCost + 2 * h).toBeGreaterThan(max);
      }
    }
  });
});
