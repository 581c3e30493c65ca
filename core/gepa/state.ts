/**
 * The GEPA search state a workflow carries, and pure transitions over it. Every
 * transition returns a new state and leaves its input untouched. The state is
 * plain JSON (no Maps, no classes), small (specs, per-case Validation scores and a
 * one-line log per iteration; outputs and traces belong in the experiment records),
 * so the workflow can continue-as-new between iterations by passing it along.
 *
 * One iteration, driven by the workflow:
 *   stop = searchStopReason(state)            → leave the loop when defined
 *   { state, plan } = planIteration(state, feedbackCaseIds)
 *   evaluate parent on plan.caseIds with plan.pairedSeed
 *   { state, run: parentRun } = recordMinibatch(state, plan, parentEvaluations)
 *   reflect on plan.component (buildReflectionMessages)
 *   screening = screenProposal({ parentSpec, component, answer, poolFingerprints: poolFingerprints(state) })
 *     not ok → state = rejectIteration(state, plan, { outcome, reason, parentMinibatchTotal })
 *   evaluate child (id candidateIdFor(screening.fingerprint)) on the same cases and seed
 *   { state, run: childRun } = recordMinibatch(state, plan, childEvaluations)
 *   verdict = judgeMinibatch(parentRun, childRun)
 *     not accepted → state = rejectIteration(state, plan, { …verdict, childId })
 *   evaluate child on Validation with state.validationSeed
 *   state = admitChild(state, plan, screening, verdict, validationEvaluations)
 */
import type { Dataset, FrontierOptions, GepaOptions, IterationLogEntry, IterationOutcome } from '../schemas/gepa';
import type { SkillComponent, SkillSpec } from '../schemas/skill';
import type { MinibatchRun, MinibatchVerdict } from './acceptance';
import { planBudget, searchStopReason as budgetStopReason, spendMetricCalls, minibatchSize, type MetricBudget, type SpendPhase } from './budget';
import { componentAt, nextComponentCursor, specFingerprint } from './components';
import { alignEvaluations } from './evaluations';
import { sampleFrontierParent, type FrontierCandidate } from './frontier';
import type { MergeSchedule } from './merge';
import { sampleMinibatchIndices } from './minibatch';
import { meanScore, sampleParent, type ScoreRow } from './pareto';
import { deriveSeed, prngFromSeed, type PrngState } from './prng';
import { selectWinner, type Winner } from './selection';
import { chargeEvaluatorSpend, emptyLedger, type BatchSpend, type SpendLedger } from './spend';
import { selectionReserveFor, type BudgetPlan } from './preflight';
import { emptyMergeSchedule } from './merge';

export const SEARCH_STATE_VERSION = 1;
/** The state keeps only the latest log entries; the workflow records every entry in the experiment records. */
export const LOG_TAIL_LIMIT = 100;

export interface CandidateRecord {
  /** `c-{fingerprint}`: content-derived, so equal specs share an id (safe for evaluator caches). */
  id: string;
  parentId?: string;
  spec: SkillSpec;
  fingerprint: string;
  /** The component whose rewrite produced this candidate (absent for the seed). */
  mutatedComponent?: SkillComponent;
  /** Iteration that produced it (absent for the seed). */
  iteration?: number;
  /**
   * Round-robin cursor into COMPONENT_ORDER: the component rewritten the next time
   * this candidate is chosen as parent. It advances on every selection (accepted or
   * not) and a child starts from its parent's advanced cursor, as in the reference.
   */
  componentCursor: number;
  /** Aligned with GepaSearchState.validationCaseIds. */
  validationScores: number[];
  validationMean: number;
  /** A merge's two parents (parentId is the first) and their common ancestor. */
  mergedFrom?: string[];
  ancestorId?: string;
  /** Validation means of what the evaluator reports besides the score (tokens, costUsd, objectives). */
  validationObjectives?: Record<string, number>;
}

export interface GepaSearchState {
  version: typeof SEARCH_STATE_VERSION;
  experimentId: string;
  randomSeed: number;
  /** Seed given to the evaluator for every Validation run (all candidates alike). */
  validationSeed: number;
  /** Seed given to the evaluator for both Holdout runs (seed and winner, paired). */
  holdoutSeed: number;
  validationCaseIds: string[];
  feedbackSize: number;
  minibatchSize: number;
  maxIterations: number;
  budget: MetricBudget;
  prng: PrngState;
  /** Iterations completed (accepted or rejected); also the number of the next one. */
  iteration: number;
  /** Candidate pool in admission order; candidates[0] is the seed, never removed. */
  candidates: CandidateRecord[];
  /** The latest LOG_TAIL_LIMIT iteration log entries, oldest first. */
  log: IterationLogEntry[];
  /** Entries dropped from the front of `log` to keep the state small. */
  logDropped: number;
  /**
   * The rest is absent in states of runs started before these features (they replay
   * and resume with the defaults):
   * evaluations answered by the evaluation cache;
   */
  cacheHits?: number;
  /** tokens and money spent; */
  spend?: SpendLedger;
  /** the merge schedule (present when merge is enabled); */
  merge?: MergeSchedule;
  /** proposals the budget allowed at the pre-flight check. */
  proposalsPossible?: number;
}

/** What an evaluation batch adds besides its scores. */
export interface BatchCharge {
  /** Metric calls to charge (default: one per evaluation). */
  charge?: number;
  cacheHits?: number;
  spend?: BatchSpend;
  /** Objective means (tokens, costUsd and reported objectives), kept for Validation runs. */
  objectives?: Record<string, number>;
}

/** What one iteration works on, decided up front by `planIteration`. */
export interface IterationPlan {
  iteration: number;
  parentId: string;
  component: SkillComponent;
  /** Feedback minibatch, as positions in the Feedback split and as case ids. */
  caseIndices: number[];
  caseIds: string[];
  /** The same seed for parent and child minibatch runs. */
  pairedSeed: number;
  /** state.cacheHits when the iteration began (for the log entry's count), when the state counts hits. */
  cacheHitsBefore?: number;
}

export function candidateIdFor(fingerprint: string): string {
  return `c-${fingerprint}`;
}

/**
 * The state before anything is evaluated. Throws MetricBudgetError when the budget
 * cannot even cover seed Validation plus the Holdout reserve.
 */
export function initSearchState(input: {
  experimentId: string;
  options: Pick<GepaOptions, 'maxIterations' | 'maxMetricCalls' | 'reflectionBatchSize' | 'randomSeed'> & Partial<Pick<GepaOptions, 'selection'>>;
  dataset: Pick<Dataset, 'feedback' | 'validation' | 'holdout'>;
}): GepaSearchState {
  const { options, dataset } = input;
  const budget = planBudget({
    maxMetricCalls: options.maxMetricCalls,
    feedbackSize: dataset.feedback.length,
    validationSize: dataset.validation.length,
    holdoutSize: dataset.holdout.length,
    reflectionBatchSize: options.reflectionBatchSize,
    selectionReserve: selectionReserveFor(options.selection, dataset.validation.length),
  });
  return {
    version: SEARCH_STATE_VERSION,
    experimentId: input.experimentId,
    randomSeed: options.randomSeed,
    validationSeed: deriveSeed(options.randomSeed, 'validation'),
    holdoutSeed: deriveSeed(options.randomSeed, 'holdout'),
    validationCaseIds: dataset.validation.map((c) => c.id),
    feedbackSize: dataset.feedback.length,
    minibatchSize: minibatchSize(options.reflectionBatchSize, dataset.feedback.length),
    maxIterations: options.maxIterations,
    budget,
    prng: prngFromSeed(options.randomSeed),
    iteration: 0,
    candidates: [],
    log: [],
    logDropped: 0,
  };
}

/**
 * Turns on what runs started on this version track beyond the metric budget: cache hits,
 * spend, the pre-flight's proposal count and (when enabled) the merge schedule. States of
 * older runs lack these fields and keep their behaviour on replay.
 */
export function withTracking(state: GepaSearchState, opts: { plan: Pick<BudgetPlan, 'proposalsPossible'>; merge: boolean }): GepaSearchState {
  return {
    ...state,
    cacheHits: state.cacheHits ?? 0,
    spend: state.spend ?? emptyLedger(),
    proposalsPossible: opts.plan.proposalsPossible,
    ...(opts.merge && !state.merge ? { merge: emptyMergeSchedule() } : {}),
  };
}

function requireCandidate(state: GepaSearchState, id: string): CandidateRecord {
  const found = state.candidates.find((c) => c.id === id);
  if (!found) throw new Error(`candidate "${id}" is not in the pool`);
  return found;
}

export function findCandidate(state: GepaSearchState, id: string): CandidateRecord | undefined {
  return state.candidates.find((c) => c.id === id);
}

export function seedCandidate(state: GepaSearchState): CandidateRecord {
  if (state.candidates.length === 0) throw new Error('the seed has not been evaluated yet');
  return state.candidates[0];
}

export function scoreRows(state: GepaSearchState): ScoreRow[] {
  return state.candidates.map((c) => ({ id: c.id, scores: c.validationScores }));
}

/** Fingerprint → candidate id, for duplicate detection. */
export function poolFingerprints(state: GepaSearchState): Map<string, string> {
  return new Map(state.candidates.map((c) => [c.fingerprint, c.id]));
}

/** Records metric calls spent outside the helpers below (a failed evaluation, Holdout). */
export function chargeMetricCalls(state: GepaSearchState, calls: number, phase: SpendPhase = 'search'): GepaSearchState {
  return { ...state, budget: spendMetricCalls(state.budget, calls, phase) };
}

/** Charges one evaluation batch: its metric calls, cache hits and spend. */
export function chargeBatch(state: GepaSearchState, evaluations: number, extra: BatchCharge = {}, phase: SpendPhase = 'search'): GepaSearchState {
  const charged = chargeMetricCalls(state, extra.charge ?? evaluations, phase);
  const withHits = extra.cacheHits ? { ...charged, cacheHits: (charged.cacheHits ?? 0) + extra.cacheHits } : charged;
  return extra.spend ? { ...withHits, spend: chargeEvaluatorSpend(withHits.spend, extra.spend) } : withHits;
}

/** The pool as the frontier sees it: Validation scores and objective means. */
export function frontierRows(state: GepaSearchState): FrontierCandidate[] {
  return state.candidates.map((c) => ({ id: c.id, scores: c.validationScores, ...(c.validationObjectives ? { objectives: c.validationObjectives } : {}) }));
}

function validationScoresOf(state: GepaSearchState, raw: readonly unknown[]): number[] {
  return alignEvaluations(state.validationCaseIds, raw).scores;
}

/** Adds the seed with its Validation scores (evaluated with `validationSeed`) and charges |V| (or `extra.charge`). */
export function admitSeed(state: GepaSearchState, seedSpec: SkillSpec, validationEvaluations: readonly unknown[], extra: BatchCharge = {}): GepaSearchState {
  if (state.candidates.length > 0) throw new Error('the seed is already in the pool');
  const scores = validationScoresOf(state, validationEvaluations);
  const fingerprint = specFingerprint(seedSpec);
  const seed: CandidateRecord = {
    id: candidateIdFor(fingerprint),
    spec: seedSpec,
    fingerprint,
    componentCursor: 0,
    validationScores: scores,
    validationMean: meanScore(scores),
    ...objectivesField(extra.objectives),
  };
  return { ...chargeBatch(state, scores.length, extra), candidates: [seed] };
}

function objectivesField(objectives: Record<string, number> | undefined): Pick<CandidateRecord, 'validationObjectives'> {
  return objectives && Object.keys(objectives).length > 0 ? { validationObjectives: objectives } : {};
}

/** Why search must stop now (max_iterations, then metric_budget), or undefined to run another iteration. */
export function searchStopReason(state: GepaSearchState): 'max_iterations' | 'metric_budget' | undefined {
  return budgetStopReason(state.budget, state.iteration, state.maxIterations);
}

/**
 * Chooses the parent (Pareto sampling), the Feedback minibatch and the paired seed,
 * and advances the parent's component cursor. Feedback ids are given in split order.
 */
export function planIteration(
  state: GepaSearchState,
  feedbackCaseIds: readonly string[],
  frontier?: Pick<FrontierOptions, 'type' | 'objectives'>,
): { state: GepaSearchState; plan: IterationPlan } {
  if (state.candidates.length === 0) throw new Error('evaluate and admit the seed before planning iterations');
  if (feedbackCaseIds.length !== state.feedbackSize) {
    throw new Error(`expected ${state.feedbackSize} feedback case ids, got ${feedbackCaseIds.length}`);
  }
  const stop = searchStopReason(state);
  if (stop) throw new Error(`cannot start iteration ${state.iteration}: search is over (${stop})`);
  const parentDraw = frontier && frontier.type !== 'instance' ? sampleFrontierParent(frontierRows(state), frontier, state.prng) : sampleParent(scoreRows(state), state.prng);
  const batch = sampleMinibatchIndices(state.feedbackSize, state.minibatchSize, parentDraw.prng);
  const parent = requireCandidate(state, parentDraw.parentId);
  const plan: IterationPlan = {
    iteration: state.iteration,
    parentId: parent.id,
    component: componentAt(parent.componentCursor),
    caseIndices: batch.indices,
    caseIds: batch.indices.map((i) => feedbackCaseIds[i]),
    pairedSeed: deriveSeed(state.randomSeed, state.iteration),
    ...(state.cacheHits !== undefined ? { cacheHitsBefore: state.cacheHits } : {}),
  };
  const candidates = state.candidates.map((c) => (c.id === parent.id ? { ...c, componentCursor: nextComponentCursor(c.componentCursor) } : c));
  return { state: { ...state, prng: batch.prng, candidates }, plan };
}

/** Checks a minibatch evaluation (parent's or child's) against the plan and charges its calls. */
export function recordMinibatch(
  state: GepaSearchState,
  plan: IterationPlan,
  evaluations: readonly unknown[],
  extra: BatchCharge = {},
): { state: GepaSearchState; run: MinibatchRun } {
  const { scores } = alignEvaluations(plan.caseIds, evaluations);
  return { state: chargeBatch(state, scores.length, extra), run: { caseIds: plan.caseIds, seed: plan.pairedSeed, scores } };
}

function logEntry(
  state: GepaSearchState,
  plan: IterationPlan,
  fields: Omit<IterationLogEntry, 'iteration' | 'parentId' | 'component' | 'pairedSeed' | 'metricCallsAfter'>,
): IterationLogEntry {
  if (state.merge) fields = { kind: 'reflection', ...fields };
  return {
    iteration: plan.iteration,
    parentId: plan.parentId,
    component: plan.component,
    pairedSeed: plan.pairedSeed,
    ...fields,
    metricCallsAfter: state.budget.used,
    ...(plan.cacheHitsBefore !== undefined ? { cacheHits: (state.cacheHits ?? 0) - plan.cacheHitsBefore } : {}),
  };
}

function assertCurrent(state: GepaSearchState, plan: IterationPlan): void {
  if (plan.iteration !== state.iteration) throw new Error(`plan is for iteration ${plan.iteration} but the state is at ${state.iteration}`);
}

/** Ends the iteration without a new candidate and logs why. */
export function rejectIteration(
  state: GepaSearchState,
  plan: IterationPlan,
  rejection: {
    outcome: Exclude<IterationOutcome, 'accepted'>;
    reason: string;
    parentMinibatchTotal?: number;
    childMinibatchTotal?: number;
    childId?: string;
  },
): GepaSearchState {
  assertCurrent(state, plan);
  const entry = logEntry(state, plan, {
    accepted: false,
    outcome: rejection.outcome,
    reason: rejection.reason,
    parentMinibatchTotal: rejection.parentMinibatchTotal,
    childMinibatchTotal: rejection.childMinibatchTotal,
    childId: rejection.childId,
  });
  return { ...state, iteration: state.iteration + 1, ...noNewCandidate(state), ...appendLog(state, stripUndefined(entry)) };
}

/** GEPA tries a merge only right after an iteration that found a new candidate. */
function noNewCandidate(state: GepaSearchState): Pick<GepaSearchState, 'merge'> {
  return state.merge ? { merge: { ...state.merge, lastIterationFoundNew: false } } : {};
}

/** An accepted reflective child schedules one merge, while fewer than `maxMerges` were tried. */
function foundNewCandidate(state: GepaSearchState, maxMerges: number | undefined): Pick<GepaSearchState, 'merge'> {
  if (!state.merge) return {};
  const room = maxMerges !== undefined && state.merge.tested + state.merge.due < maxMerges;
  return { merge: { ...state.merge, lastIterationFoundNew: true, due: state.merge.due + (room ? 1 : 0) } };
}

/** Adds an accepted child with its Validation scores (evaluated with `validationSeed`), charging |V|. */
export function admitChild(
  state: GepaSearchState,
  plan: IterationPlan,
  child: { spec: SkillSpec; fingerprint: string },
  verdict: MinibatchVerdict,
  validationEvaluations: readonly unknown[],
  extra: BatchCharge & { maxMerges?: number } = {},
): GepaSearchState {
  assertCurrent(state, plan);
  if (!verdict.accepted) throw new Error('only a child that passed the minibatch test can be admitted');
  if (poolFingerprints(state).has(child.fingerprint)) throw new Error(`candidate ${candidateIdFor(child.fingerprint)} is already in the pool`);
  const parent = requireCandidate(state, plan.parentId);
  const scores = validationScoresOf(state, validationEvaluations);
  const charged = chargeBatch(state, scores.length, extra);
  const record: CandidateRecord = {
    id: candidateIdFor(child.fingerprint),
    parentId: parent.id,
    spec: child.spec,
    fingerprint: child.fingerprint,
    mutatedComponent: plan.component,
    iteration: plan.iteration,
    componentCursor: parent.componentCursor,
    validationScores: scores,
    validationMean: meanScore(scores),
    ...objectivesField(extra.objectives),
  };
  const entry = logEntry(charged, plan, {
    accepted: true,
    outcome: 'accepted',
    reason: verdict.reason,
    parentMinibatchTotal: verdict.parentTotal,
    childMinibatchTotal: verdict.childTotal,
    childId: record.id,
    childValidationMean: record.validationMean,
  });
  return { ...charged, iteration: state.iteration + 1, candidates: [...state.candidates, record], ...foundNewCandidate(state, extra.maxMerges), ...appendLog(state, entry) };
}

/** The Validation winner of the current pool (ties → earliest; the seed is candidates[0]). */
export function winnerOf(state: GepaSearchState): Winner & { candidate: CandidateRecord } {
  const winner = selectWinner(scoreRows(state));
  return { ...winner, candidate: requireCandidate(state, winner.id) };
}

export function appendLog(state: GepaSearchState, entry: IterationLogEntry): Pick<GepaSearchState, 'log' | 'logDropped'> {
  const log = [...state.log, entry];
  const excess = Math.max(0, log.length - LOG_TAIL_LIMIT);
  return { log: log.slice(excess), logDropped: state.logDropped + excess };
}

export function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
