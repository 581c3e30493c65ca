import { describe, expect, it } from 'vitest';
import {
  canStartIteration,
  initSearchState,
  MIN_PROPOSALS,
  planProposals,
  preflightBudget,
  preflightProblem,
  PreflightError,
  spendMetricCalls,
  type PreflightShape,
} from '../../core/gepa';
import { GepaOptionsSchema } from '../../core/schemas';

// |V| = 10, |H| = 10 (reserve 20), minibatch 3: a proposal costs at most 2 × 3 + 10 = 16.
const shape: PreflightShape = { maxMetricCalls: 1000, maxIterations: 10, feedbackSize: 10, validationSize: 10, holdoutSize: 10, reflectionBatchSize: 3 };

describe('pre-flight budget check', () => {
  it('says how many proposals the budget allows, with the loop’s own arithmetic', () => {
    const plan = planProposals({ ...shape, maxMetricCalls: 10 + 20 + 16 * 4 + 15 });
    expect(plan).toMatchObject({
      seedValidation: 10,
      holdoutReserve: 20,
      selectionReserve: 0,
      iterationCost: 16,
      minibatch: 3,
      proposalsPossible: 4,
      proposalsRequired: MIN_PROPOSALS,
    });
    // The same count as the loop's budget rule: exactly 4 iterations can start.
    const dataset = {
      feedback: Array.from({ length: 10 }, (_, i) => ({ id: `f${i}`, input: 0, critical: false })),
      validation: Array.from({ length: 10 }, (_, i) => ({ id: `v${i}`, input: 0, critical: false })),
      holdout: Array.from({ length: 10 }, (_, i) => ({ id: `h${i}`, input: 0, critical: false })),
    };
    const state = initSearchState({ experimentId: 'e', options: GepaOptionsSchema.parse({ maxMetricCalls: plan.maxMetricCalls, maxIterations: 10 }), dataset });
    let budget = spendMetricCalls(state.budget, 10);
    let started = 0;
    while (canStartIteration(budget)) {
      budget = spendMetricCalls(budget, 16);
      started++;
    }
    expect(started).toBe(plan.proposalsPossible);
  });

  it('refuses a run that cannot complete three proposals, naming the numbers and the budget that would do', () => {
    const tight = { ...shape, maxMetricCalls: 10 + 20 + 16 * 2 + 9 };
    expect(preflightProblem(tight)).toBe(
      'maxMetricCalls 71 allows 2 proposals (seed validation 10 + holdout reserve 20 (2 × 10 holdout cases) + 16 per proposal (2 × minibatch 3 + 10 validation)), ' +
        'fewer than the 3 required: raise maxMetricCalls to at least 78',
    );
    expect(() => preflightBudget(tight)).toThrow(PreflightError);
    expect(preflightProblem({ ...shape, maxMetricCalls: 78 })).toBeUndefined();
    expect(preflightBudget({ ...shape, maxMetricCalls: 78 }).proposalsPossible).toBe(3);
  });

  it('asks only for the iterations requested when fewer than three, and allows an evaluation-only run', () => {
    expect(planProposals({ ...shape, maxIterations: 1, maxMetricCalls: 46 })).toMatchObject({ proposalsPossible: 1, proposalsRequired: 1 });
    expect(preflightProblem({ ...shape, maxIterations: 1, maxMetricCalls: 46 })).toBeUndefined();
    expect(preflightProblem({ ...shape, maxIterations: 2, maxMetricCalls: 46 })).toMatch(
      /allows 1 proposal \(.*fewer than the 2 required: raise maxMetricCalls to at least 62 or lower maxIterations/,
    );
    expect(preflightProblem({ ...shape, maxIterations: 0, maxMetricCalls: 30 })).toBeUndefined();
  });

  it('refuses a budget that cannot even cover seed validation and the holdout reserve', () => {
    expect(preflightProblem({ ...shape, maxMetricCalls: 29 })).toBe('maxMetricCalls 29 cannot cover seed validation 10 + holdout reserve 20 (2 × 10 holdout cases) = 30 calls');
  });

  it('sets multi-seed selection calls aside like the holdout reserve', () => {
    const multi = { ...shape, selection: { method: 'multi_seed' as const, seeds: 3, finalists: 2, folds: 5 } };
    // 2 finalists × 2 extra seeds × 10 validation cases = 40.
    expect(planProposals({ ...multi, maxMetricCalls: 10 + 20 + 40 + 48 })).toMatchObject({ selectionReserve: 40, proposalsPossible: 3 });
    expect(preflightProblem({ ...multi, maxMetricCalls: 10 + 20 + 40 + 47 })).toMatch(/multi-seed selection reserve 40/);
  });

  it('refuses k-fold selection with more folds than validation cases', () => {
    expect(preflightProblem({ ...shape, selection: { method: 'k_fold', folds: 11, seeds: 3, finalists: 3 } })).toBe(
      'selection k_fold needs at least 11 validation cases (one per fold), got 10',
    );
  });

  it('plans a resume from what was already spent and done', () => {
    const resumed = { ...shape, maxMetricCalls: 200, used: 10 + 16 * 5, completedIterations: 5, seedEvaluated: true };
    // Room: 200 − 90 − 20 = 90 → 5 proposals; 5 iterations left.
    expect(planProposals(resumed)).toMatchObject({ seedValidation: 0, proposalsPossible: 5, iterationsLeft: 5, proposalsRequired: 3 });
    expect(preflightProblem({ ...resumed, maxMetricCalls: 150 })).toMatch(/^maxMetricCalls 150 allows 2 proposals \(90 already used \+ holdout reserve 20/);
    expect(preflightProblem({ ...resumed, maxIterations: 5 })).toBeUndefined(); // nothing left to run is not an over-spend
    expect(planProposals({ ...resumed, maxIterations: 5 }).proposalsPossible).toBe(0);
  });
});
