/**
 * The merge step over the search state (merge.ts has the rules). One merge iteration,
 * driven by the workflow when `planMerge` returns a plan:
 *   evaluate the merged spec on plan.subsampleCaseIds with state.validationSeed
 *   { state, scores } = recordMergeSubsample(state, plan, evaluations)
 *   verdict = judgeMerge(plan.proposal, scores)
 *     not accepted → state = rejectMerge(state, plan, { outcome: 'not_better', … })
 *   evaluate it on plan.restCaseIds with state.validationSeed (skipped when empty)
 *   state = admitMerge(state, plan, verdict, scores, restEvaluations)
 * A merge takes an iteration number, counts towards maxIterations, and costs at most |V|
 * metric calls (subsample + the rest of Validation), within an iteration's worst case.
 */
import type { FrontierOptions, IterationOutcome } from '../schemas/gepa';
import { alignEvaluations } from './evaluations';
import { frontierCandidates } from './frontier';
import { assembleValidationScores, proposeMerge, type MergeProposal, type MergeVerdict } from './merge';
import { meanScore } from './pareto';
import { appendLog, candidateIdFor, chargeBatch, frontierRows, stripUndefined, type BatchCharge, type CandidateRecord, type GepaSearchState } from './state';
import type { IterationLogEntry } from '../schemas/gepa';

export interface MergePlan {
  iteration: number;
  proposal: MergeProposal;
  childId: string;
  subsampleCaseIds: string[];
  /** Validation cases outside the subsample, in Validation order. */
  restCaseIds: string[];
  /** Every run of the merged candidate is under the Validation seed, like its parents' scores. */
  seed: number;
  cacheHitsBefore?: number;
}

/**
 * A merge for this iteration, if one is due (scheduled, and the previous iteration found
 * a new candidate) and a pair qualifies. Consumes PRNG values only when one is due. A
 * merge is counted as tried when a pair qualified (whatever its verdict); when none
 * does, it stays due and the iteration is a reflective one.
 */
export function planMerge(
  state: GepaSearchState,
  options: { frontier: Pick<FrontierOptions, 'type' | 'objectives'>; subsampleSize: number },
): { state: GepaSearchState; plan?: MergePlan } {
  const schedule = state.merge;
  if (!schedule || schedule.due <= 0 || !schedule.lastIterationFoundNew) return { state };
  const found = proposeMerge({
    candidates: state.candidates,
    frontierIds: frontierCandidates(frontierRows(state), options.frontier),
    tried: schedule.tried,
    subsampleSize: options.subsampleSize,
    prng: state.prng,
  });
  const tried = [...schedule.tried, ...found.tried];
  if (!found.proposal) return { state: { ...state, prng: found.prng, merge: { ...schedule, tried, lastIterationFoundNew: false } } };
  const inSubsample = new Set(found.proposal.subsample);
  const plan: MergePlan = {
    iteration: state.iteration,
    proposal: found.proposal,
    childId: candidateIdFor(found.proposal.fingerprint),
    subsampleCaseIds: found.proposal.subsample.map((i) => state.validationCaseIds[i]),
    restCaseIds: state.validationCaseIds.filter((_, i) => !inSubsample.has(i)),
    seed: state.validationSeed,
    ...(state.cacheHits !== undefined ? { cacheHitsBefore: state.cacheHits } : {}),
  };
  const merge = { ...schedule, tried, lastIterationFoundNew: false, due: schedule.due - 1, tested: schedule.tested + 1 };
  return { state: { ...state, prng: found.prng, merge }, plan };
}

/** Checks the subsample run against the plan and charges it; the scores are in subsample order. */
export function recordMergeSubsample(
  state: GepaSearchState,
  plan: MergePlan,
  evaluations: readonly unknown[],
  extra: BatchCharge = {},
): { state: GepaSearchState; scores: number[] } {
  const { scores } = alignEvaluations(plan.subsampleCaseIds, evaluations);
  return { state: chargeBatch(state, scores.length, extra), scores };
}

function mergeEntry(
  state: GepaSearchState,
  plan: MergePlan,
  fields: Omit<IterationLogEntry, 'iteration' | 'kind' | 'parentId' | 'mergeParentIds' | 'ancestorId' | 'metricCallsAfter' | 'pairedSeed'>,
): IterationLogEntry {
  return stripUndefined({
    iteration: plan.iteration,
    kind: 'merge',
    parentId: plan.proposal.parentIds[0],
    mergeParentIds: [...plan.proposal.parentIds],
    ancestorId: plan.proposal.ancestorId,
    pairedSeed: plan.seed,
    ...fields,
    metricCallsAfter: state.budget.used,
    ...(plan.cacheHitsBefore !== undefined ? { cacheHits: (state.cacheHits ?? 0) - plan.cacheHitsBefore } : {}),
  } as IterationLogEntry);
}

function assertCurrent(state: GepaSearchState, plan: MergePlan): void {
  if (plan.iteration !== state.iteration) throw new Error(`merge plan is for iteration ${plan.iteration} but the state is at ${state.iteration}`);
}

/** Ends a merge iteration without a new candidate and logs why. */
export function rejectMerge(
  state: GepaSearchState,
  plan: MergePlan,
  rejection: { outcome: Extract<IterationOutcome, 'not_better' | 'evaluation_failed'>; reason: string; parentMinibatchTotal?: number; childMinibatchTotal?: number },
): GepaSearchState {
  assertCurrent(state, plan);
  const entry = mergeEntry(state, plan, { accepted: false, childId: plan.childId, ...rejection });
  return { ...state, iteration: state.iteration + 1, ...appendLog(state, entry) };
}

/** Adds an accepted merge with its full Validation scores (subsample + rest), charging the rest. */
export function admitMerge(
  state: GepaSearchState,
  plan: MergePlan,
  verdict: MergeVerdict,
  subsampleScores: readonly number[],
  restEvaluations: readonly unknown[],
  extra: BatchCharge & { subsampleObjectives?: Record<string, number> } = {},
): GepaSearchState {
  assertCurrent(state, plan);
  if (!verdict.accepted) throw new Error('only a merge that passed the subsample test can be admitted');
  if (state.candidates.some((c) => c.fingerprint === plan.proposal.fingerprint)) throw new Error(`candidate ${plan.childId} is already in the pool`);
  const rest = alignEvaluations(plan.restCaseIds, restEvaluations).scores;
  const charged = plan.restCaseIds.length > 0 ? chargeBatch(state, rest.length, extra) : state;
  const scores = assembleValidationScores(state.validationCaseIds.length, plan.proposal.subsample, subsampleScores, rest);
  const [first, second] = plan.proposal.parentIds.map((id) => state.candidates.find((c) => c.id === id)!);
  const record: CandidateRecord = {
    id: plan.childId,
    parentId: first.id,
    mergedFrom: [first.id, second.id],
    ancestorId: plan.proposal.ancestorId,
    spec: plan.proposal.spec,
    fingerprint: plan.proposal.fingerprint,
    iteration: plan.iteration,
    componentCursor: Math.max(first.componentCursor, second.componentCursor),
    validationScores: scores,
    validationMean: meanScore(scores),
    ...weightedObjectives(extra.subsampleObjectives, plan.subsampleCaseIds.length, extra.objectives, plan.restCaseIds.length),
  };
  const entry = mergeEntry(charged, plan, {
    accepted: true,
    outcome: 'accepted',
    reason: verdict.reason,
    parentMinibatchTotal: verdict.parentTotal,
    childMinibatchTotal: verdict.childTotal,
    childId: record.id,
    childValidationMean: record.validationMean,
  });
  const merge = charged.merge ? { ...charged.merge, accepted: charged.merge.accepted + 1 } : undefined;
  return { ...charged, iteration: state.iteration + 1, candidates: [...state.candidates, record], ...(merge ? { merge } : {}), ...appendLog(state, entry) };
}

/** Validation objective means of a merge, from its two runs weighted by their case counts (objectives in both runs only). */
function weightedObjectives(a: Record<string, number> | undefined, na: number, b: Record<string, number> | undefined, nb: number): Pick<CandidateRecord, 'validationObjectives'> {
  if (nb === 0) return a && Object.keys(a).length > 0 ? { validationObjectives: a } : {};
  if (!a || !b) return {};
  const names = Object.keys(a).filter((k) => k in b);
  if (names.length === 0) return {};
  return { validationObjectives: Object.fromEntries(names.map((k) => [k, (a[k] * na + b[k] * nb) / (na + nb)])) };
}
