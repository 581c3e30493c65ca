/**
 * The pre-flight budget check: before anything is evaluated, what the metric budget
 * allows, computed with the very rules the loop charges by (budget.ts), so the two
 * cannot drift apart. A run that cannot complete at least MIN_PROPOSALS proposals (or
 * every iteration it asks for, when it asks for fewer) is refused with the numbers: an
 * under-budgeted run would otherwise "succeed" after a proposal or two.
 */
import type { SelectionOptions } from '../schemas/gepa';
import { holdoutReserve, MetricBudgetError, minibatchSize } from './budget';

/** Proposals (reflective mutations or merges, one per iteration) a run must be able to afford. */
export const MIN_PROPOSALS = 3;

export interface PreflightShape {
  maxMetricCalls: number;
  maxIterations: number;
  feedbackSize: number;
  validationSize: number;
  holdoutSize: number;
  reflectionBatchSize: number;
  selection?: Pick<SelectionOptions, 'method' | 'seeds' | 'finalists' | 'folds'>;
  /** Resuming: calls already spent (seed Validation included once the seed is in the pool). */
  used?: number;
  /** Resuming: iterations already completed. */
  completedIterations?: number;
  /** Resuming: whether the seed's Validation run is already paid for. */
  seedEvaluated?: boolean;
}

export interface BudgetPlan {
  maxMetricCalls: number;
  used: number;
  /** Seed Validation still to pay (|V|, or 0 when resuming after it). */
  seedValidation: number;
  holdoutReserve: number;
  selectionReserve: number;
  /** Worst case of one iteration: 2 × minibatch + |V| (a merge costs at most |V|). */
  iterationCost: number;
  minibatch: number;
  iterationsLeft: number;
  /** What the budget allows, at most the iterations left. */
  proposalsPossible: number;
  proposalsRequired: number;
}

export class PreflightError extends MetricBudgetError {
  override name = 'PreflightError';
  constructor(
    message: string,
    readonly plan: BudgetPlan,
  ) {
    super(message);
  }
}

/** multi_seed re-evaluates the finalists on Validation under every extra seed. */
export function selectionReserveFor(selection: PreflightShape['selection'], validationSize: number): number {
  if (!selection || selection.method !== 'multi_seed') return 0;
  return selection.finalists * (selection.seeds - 1) * validationSize;
}

/** What the budget allows; pure arithmetic, never throws. */
export function planProposals(shape: PreflightShape): BudgetPlan {
  const minibatch = minibatchSize(shape.reflectionBatchSize, shape.feedbackSize);
  const iterationCost = 2 * minibatch + shape.validationSize;
  const reserve = holdoutReserve(shape.holdoutSize);
  const selectionReserve = selectionReserveFor(shape.selection, shape.validationSize);
  const used = shape.used ?? 0;
  const seedValidation = shape.seedEvaluated ? 0 : shape.validationSize;
  const iterationsLeft = Math.max(0, shape.maxIterations - (shape.completedIterations ?? 0));
  const room = shape.maxMetricCalls - used - seedValidation - reserve - selectionReserve;
  const affordable = room < 0 ? 0 : iterationCost > 0 ? Math.floor(room / iterationCost) : iterationsLeft;
  return {
    maxMetricCalls: shape.maxMetricCalls,
    used,
    seedValidation,
    holdoutReserve: reserve,
    selectionReserve,
    iterationCost,
    minibatch,
    iterationsLeft,
    proposalsPossible: Math.min(iterationsLeft, affordable),
    proposalsRequired: Math.min(MIN_PROPOSALS, iterationsLeft),
  };
}

/** The smallest maxMetricCalls that affords `proposals` proposals. */
export function callsNeededFor(plan: BudgetPlan, proposals: number): number {
  return plan.used + plan.seedValidation + plan.holdoutReserve + plan.selectionReserve + proposals * plan.iterationCost;
}

/** Why a plan cannot run (with the numbers), or undefined when it can. */
export function preflightProblem(shape: PreflightShape): string | undefined {
  if (shape.selection?.method === 'k_fold' && shape.selection.folds > shape.validationSize) {
    return `selection k_fold needs at least ${shape.selection.folds} validation cases (one per fold), got ${shape.validationSize}`;
  }
  const plan = planProposals(shape);
  const parts = [
    plan.used > 0 ? `${plan.used} already used` : undefined,
    plan.seedValidation > 0 ? `seed validation ${plan.seedValidation}` : undefined,
    `holdout reserve ${plan.holdoutReserve} (2 × ${shape.holdoutSize} holdout cases)`,
    plan.selectionReserve > 0 ? `multi-seed selection reserve ${plan.selectionReserve}` : undefined,
    `${plan.iterationCost} per proposal (2 × minibatch ${plan.minibatch} + ${shape.validationSize} validation)`,
  ].filter((p): p is string => p !== undefined);
  const fixed = callsNeededFor(plan, 0);
  if (fixed > shape.maxMetricCalls) {
    return `maxMetricCalls ${shape.maxMetricCalls} cannot cover ${parts.slice(0, -1).join(' + ')} = ${fixed} calls`;
  }
  if (plan.proposalsPossible < plan.proposalsRequired) {
    const need = callsNeededFor(plan, plan.proposalsRequired);
    return (
      `maxMetricCalls ${shape.maxMetricCalls} allows ${plan.proposalsPossible} proposal${plan.proposalsPossible === 1 ? '' : 's'} ` +
      `(${parts.join(' + ')}), fewer than the ${plan.proposalsRequired} required: ` +
      `raise maxMetricCalls to at least ${need}${plan.iterationsLeft > MIN_PROPOSALS ? '' : ' or lower maxIterations'}`
    );
  }
  return undefined;
}

/** The plan of a run that can go ahead; throws PreflightError naming the numbers otherwise. */
export function preflightBudget(shape: PreflightShape): BudgetPlan {
  const problem = preflightProblem(shape);
  if (problem) throw new PreflightError(problem, planProposals(shape));
  return planProposals(shape);
}
