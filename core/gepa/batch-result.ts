import type { Evaluation, EvaluatorDescription } from '../schemas/gepa';
import type { EvaluationBatchResult } from './experiment-types';
import { objectiveMeans } from './objectives';
import { batchSpend } from './spend';

/** Mean tokens and costUsd per case over the evaluations that report them. */
export function usageMeans(evaluations: readonly Pick<Evaluation, 'tokens' | 'costUsd'>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const field of ['costUsd', 'tokens'] as const) {
    const values = evaluations.flatMap((e) => (e[field] === undefined ? [] : [e[field]]));
    if (values.length > 0) out[field] = values.reduce((a, b) => a + b, 0) / values.length;
  }
  return out;
}

/**
 * What one evaluation batch reports to the experiment: scores and objective means, and
 * its accounting: evaluations the cache answered cost no metric call (unless hits spend
 * the budget) and no tokens or money. Computed the same way for a batch just run and
 * for one read back from its record (a resumed experiment), so both charge alike.
 */
export function summarizeBatch(input: {
  recordId: string;
  caseIds: readonly string[];
  /** In case order. */
  evaluations: readonly Evaluation[];
  hitCaseIds: readonly string[];
  /** Metric calls to charge; default: the evaluations run, plus the hits when they spend. */
  charged?: number;
  hitsSpendBudget: boolean;
  evaluator?: EvaluatorDescription;
  reused?: boolean;
}): EvaluationBatchResult {
  const hits = new Set(input.hitCaseIds);
  const run = input.evaluations.filter((e) => !hits.has(e.caseId));
  return {
    recordId: input.recordId,
    caseIds: [...input.caseIds],
    scores: input.evaluations.map((e) => e.score),
    objectives: objectiveMeans(input.evaluations),
    charged: input.charged ?? (input.hitsSpendBudget ? input.evaluations.length : run.length),
    cacheHits: hits.size,
    spend: batchSpend(run),
    usage: usageMeans(input.evaluations),
    ...(input.evaluator ? { evaluator: input.evaluator } : {}),
    ...(input.reused ? { reused: true } : {}),
  };
}
