/**
 * Token and money accounting, and the ceilings (maxTokens, maxCostUsd) that stop the
 * search before it would cross them.
 *
 * What is counted: the tokens and cost the evaluator reports per case (optional contract
 * fields) for the evaluations it actually ran (cache hits cost nothing), and the
 * reflector model's tokens as its API reports them, priced with `reflectorPricing` when
 * given (otherwise its cost is 0).
 *
 * The stop rule mirrors the metric budget's: an iteration may start only if its worst
 * case fits, with the post-search reserve set aside. Spend per call is not known in
 * advance, so the worst case is projected from the most expensive case and the most
 * expensive reflection seen so far in this experiment:
 *   spent + (iterationCost + reservedCalls) × maxCase + maxReflection ≤ ceiling.
 * It is a projection, not a guarantee: a case costlier than any before it can still
 * carry the total past the ceiling, and the seed's Validation run, which nothing can be
 * projected from, always runs. The result reports what was spent either way.
 */
import type { ExperimentSpend, Spend } from '../schemas/gepa';
import { reservedCalls, type MetricBudget } from './budget';

export interface SpendLedger {
  evaluator: Spend;
  reflector: Spend;
  /** The most expensive single case and reflection so far (the projection's unit prices). */
  maxCase: Spend;
  maxReflection: Spend;
}

export interface ReflectorUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ReflectorPricing {
  promptUsdPerMillionTokens: number;
  completionUsdPerMillionTokens: number;
}

const zero = (): Spend => ({ tokens: 0, costUsd: 0 });

export function emptyLedger(): SpendLedger {
  return { evaluator: zero(), reflector: zero(), maxCase: zero(), maxReflection: zero() };
}

const add = (a: Spend, b: Spend): Spend => ({ tokens: a.tokens + b.tokens, costUsd: a.costUsd + b.costUsd });
const max = (a: Spend, b: Spend): Spend => ({ tokens: Math.max(a.tokens, b.tokens), costUsd: Math.max(a.costUsd, b.costUsd) });

/** What one evaluation batch spent: totals over the cases the evaluator ran, and its costliest case. */
export interface BatchSpend {
  total: Spend;
  maxCase: Spend;
}

/** The spend of evaluations the evaluator ran (not cache hits); absent fields count 0. */
export function batchSpend(evaluations: readonly { tokens?: number; costUsd?: number }[]): BatchSpend {
  let total = zero();
  let maxCase = zero();
  for (const e of evaluations) {
    const one = { tokens: e.tokens ?? 0, costUsd: e.costUsd ?? 0 };
    total = add(total, one);
    maxCase = max(maxCase, one);
  }
  return { total, maxCase };
}

export function chargeEvaluatorSpend(ledger: SpendLedger | undefined, spend: BatchSpend | undefined): SpendLedger {
  const l = ledger ?? emptyLedger();
  if (!spend) return l;
  return { ...l, evaluator: add(l.evaluator, spend.total), maxCase: max(l.maxCase, spend.maxCase) };
}

export function reflectionSpend(usage: ReflectorUsage, pricing: ReflectorPricing | undefined): Spend {
  const tokens = usage.promptTokens + usage.completionTokens;
  const costUsd = pricing ? (usage.promptTokens * pricing.promptUsdPerMillionTokens + usage.completionTokens * pricing.completionUsdPerMillionTokens) / 1_000_000 : 0;
  return { tokens, costUsd };
}

export function chargeReflectorSpend(ledger: SpendLedger | undefined, spend: Spend | undefined): SpendLedger {
  const l = ledger ?? emptyLedger();
  if (!spend) return l;
  return { ...l, reflector: add(l.reflector, spend), maxReflection: max(l.maxReflection, spend) };
}

export function totalSpend(ledger: SpendLedger | undefined): ExperimentSpend {
  const l = ledger ?? emptyLedger();
  const total = add(l.evaluator, l.reflector);
  return { ...total, evaluator: { ...l.evaluator }, reflector: { ...l.reflector } };
}

export interface SpendCeilings {
  maxTokens?: number;
  maxCostUsd?: number;
}

/** Why the search must stop before another iteration (token_budget, then cost_budget), or undefined. */
export function spendStopReason(ledger: SpendLedger | undefined, budget: MetricBudget, ceilings: SpendCeilings): 'token_budget' | 'cost_budget' | undefined {
  const l = ledger ?? emptyLedger();
  const spent = totalSpend(l);
  const calls = budget.iterationCost + reservedCalls(budget);
  const projected = (field: keyof Spend) => spent[field] + calls * l.maxCase[field] + l.maxReflection[field];
  if (ceilings.maxTokens !== undefined && projected('tokens') > ceilings.maxTokens) return 'token_budget';
  if (ceilings.maxCostUsd !== undefined && projected('costUsd') > ceilings.maxCostUsd) return 'cost_budget';
  return undefined;
}
