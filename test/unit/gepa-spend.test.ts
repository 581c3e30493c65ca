import { describe, expect, it } from 'vitest';
import { batchSpend, chargeEvaluatorSpend, chargeReflectorSpend, emptyLedger, reflectionSpend, spendStopReason, totalSpend, type MetricBudget } from '../../core/gepa';

const budget: MetricBudget = { max: 1000, used: 0, holdoutReserve: 20, iterationCost: 16 };

describe('spend: tokens and cost, and the ceilings', () => {
  it('sums what the evaluator reports for the cases it ran, and remembers the costliest case', () => {
    const s = batchSpend([{ tokens: 100, costUsd: 0.01 }, { tokens: 300 }, {}]);
    expect(s).toEqual({ total: { tokens: 400, costUsd: 0.01 }, maxCase: { tokens: 300, costUsd: 0.01 } });
    const l = chargeEvaluatorSpend(chargeEvaluatorSpend(undefined, s), batchSpend([{ tokens: 50, costUsd: 0.05 }]));
    expect(l.evaluator).toEqual({ tokens: 450, costUsd: 0.060000000000000005 });
    expect(l.maxCase).toEqual({ tokens: 300, costUsd: 0.05 });
  });

  it('counts the reflector’s tokens and prices them when pricing is given', () => {
    expect(reflectionSpend({ promptTokens: 1000, completionTokens: 200 }, undefined)).toEqual({ tokens: 1200, costUsd: 0 });
    expect(reflectionSpend({ promptTokens: 1_000_000, completionTokens: 500_000 }, { promptUsdPerMillionTokens: 2, completionUsdPerMillionTokens: 8 })).toEqual({
      tokens: 1_500_000,
      costUsd: 6,
    });
    const l = chargeReflectorSpend(emptyLedger(), { tokens: 1200, costUsd: 0.5 });
    expect(totalSpend(chargeEvaluatorSpend(l, batchSpend([{ tokens: 10, costUsd: 1 }])))).toEqual({
      tokens: 1210,
      costUsd: 1.5,
      evaluator: { tokens: 10, costUsd: 1 },
      reflector: { tokens: 1200, costUsd: 0.5 },
    });
  });

  it('stops before an iteration whose projected worst case (plus the holdout reserve) would cross a ceiling', () => {
    // Costliest case 100 tokens, costliest reflection 1000: the next iteration and the reserve project (16 + 20) × 100 + 1000 = 4600.
    let l = chargeEvaluatorSpend(emptyLedger(), batchSpend([{ tokens: 100, costUsd: 0.1 }]));
    l = chargeReflectorSpend(l, { tokens: 1000, costUsd: 0 });
    const spent = 1100;
    expect(spendStopReason(l, budget, { maxTokens: spent + 4600 })).toBeUndefined();
    expect(spendStopReason(l, budget, { maxTokens: spent + 4599 })).toBe('token_budget');
    // Cost: 0.1 spent + 36 × 0.1 = 3.7.
    expect(spendStopReason(l, budget, { maxCostUsd: 3.71 })).toBeUndefined();
    expect(spendStopReason(l, budget, { maxCostUsd: 3.6 })).toBe('cost_budget');
    expect(spendStopReason(l, { ...budget, selectionReserve: 10 }, { maxCostUsd: 3.71 })).toBe('cost_budget');
    expect(spendStopReason(undefined, budget, {})).toBeUndefined();
  });
});
