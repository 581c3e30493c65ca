import { executeChild, isCancellation, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import {
  admitChild,
  admitMerge,
  admitSeed,
  candidateIdFor,
  chargeMetricCalls,
  chargeReflectorSpend,
  findCandidate,
  judgeMerge,
  judgeMinibatch,
  planIteration,
  planMerge,
  poolFingerprints,
  recordMergeSubsample,
  recordMinibatch,
  reflectionSpend,
  rejectIteration,
  rejectMerge,
  scoreTotal,
  searchStopReason,
  specFingerprint,
  spendStopReason,
  type BatchCharge,
  type GepaSearchState,
  type IterationPlan,
  type MergePlan,
  type SkillSpec,
} from '../../core';
import { modelCallRetry } from '../retry-policies';
import { failureMessage } from '../../core/failure-message';
import { evaluationBatchWorkflow } from './evaluation';
import { recordIds } from '../../core/gepa/ids';
import type { EvaluationBatchInput, EvaluationBatchResult, ExperimentContext } from '../../core/gepa/experiment-types';
import type { DatasetSplit } from '../../core/gepa/splits';
import { evaluationWorkflowId } from '../../core/workflow-ids';

// The reflector is retried a few times (malformed answers, 5xx); then the iteration is
// recorded as invalid_reflection and the search goes on.
const reflector = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  retry: modelCallRetry,
});

/** Where the search is: the state is replaced by every transition (core functions are pure). */
export interface SearchHolder {
  context: ExperimentContext;
  state: GepaSearchState;
  /**
   * searchVersion 2: the state at the last iteration boundary. A checkpoint holds it, so a
   * resumed experiment repeats an interrupted iteration from its start (reusing the batches
   * and the reflection it had finished) and ends where an uninterrupted run would.
   */
  committed?: GepaSearchState;
}

export type SearchStopReason = 'max_iterations' | 'metric_budget' | 'token_budget' | 'cost_budget';
export type SearchEnd = { kind: 'stopped'; stopReason: SearchStopReason } | { kind: 'continue' };

export interface BatchRequest {
  recordId: string;
  phase: string;
  iteration?: number;
  split: DatasetSplit;
  caseIds: string[];
  candidateId: string;
  spec: SkillSpec;
  seed: number;
}

/** Whether the experiment runs on searchVersion 2 (see ExperimentContext). */
export const onVersion2 = (context: ExperimentContext) => context.searchVersion === 2;

/**
 * Evaluates one candidate on some cases as a child workflow; only scores come back. On
 * runs that keep what the evaluator described (context.evaluatorSeen), the batch is told
 * the last versions and what it finds becomes the next batch's.
 */
export function evaluateBatch(context: ExperimentContext, request: BatchRequest): Promise<EvaluationBatchResult> {
  const cache = context.options.evaluationCache ?? { enabled: true, hitsSpendBudget: false };
  const seen = context.evaluatorSeen;
  const input: EvaluationBatchInput = {
    ...request,
    experimentId: context.experimentId,
    dataset: { id: context.dataset.id, version: context.dataset.version },
    evaluator: { taskQueue: context.evaluatorTaskQueue, chunkSize: context.options.evaluationChunkSize, concurrency: context.options.evaluationConcurrency },
    at: new Date().toISOString(),
    ...(onVersion2(context) ? { cache: { enabled: cache.enabled, hitsSpendBudget: cache.hitsSpendBudget, ...(seen?.seen ? { described: seen.described ?? null } : {}) } } : {}),
  };
  const running = executeChild(evaluationBatchWorkflow, { workflowId: evaluationWorkflowId(context.workflowId, request.recordId), args: [input] });
  if (!seen || !cache.enabled) return running;
  return running.then((result) => {
    // A batch read back from its record (a resume) tells what the evaluator said then, not now.
    if (!result.reused) context.evaluatorSeen = { seen: true, ...(result.evaluator ? { described: result.evaluator } : {}) };
    return result;
  });
}

/** The batch's scores in the shape core's transitions check (one evaluation per case). */
export function asEvaluations(batch: EvaluationBatchResult): { caseId: string; score: number }[] {
  return batch.caseIds.map((caseId, i) => ({ caseId, score: batch.scores[i] }));
}

/** What a batch charges besides its scores (batches of older runs report none: one call per case). */
export function chargeOf(batch: EvaluationBatchResult, withObjectives = false): BatchCharge {
  return {
    ...(batch.charged !== undefined ? { charge: batch.charged } : {}),
    ...(batch.cacheHits ? { cacheHits: batch.cacheHits } : {}),
    ...(batch.spend ? { spend: batch.spend } : {}),
    ...(withObjectives ? { objectives: { ...batch.objectives, ...(batch.usage ?? {}) } } : {}),
  };
}

/** A failed evaluation ends the iteration (its calls are spent); a cancellation (time limit) propagates. */
async function tryBatch(context: ExperimentContext, request: BatchRequest): Promise<EvaluationBatchResult | { failed: string }> {
  try {
    return await evaluateBatch(context, request);
  } catch (e) {
    if (isCancellation(e)) throw e;
    return { failed: failureMessage(e) };
  }
}

/** Why the search stops now: iterations and metric budget, then (searchVersion 2) the spend ceilings. */
function stopReason(h: SearchHolder): SearchStopReason | undefined {
  const stop = searchStopReason(h.state);
  if (stop || !onVersion2(h.context)) return stop;
  return spendStopReason(h.state.spend, h.state.budget, { maxTokens: h.context.options.maxTokens, maxCostUsd: h.context.options.maxCostUsd });
}

/**
 * The seed's Validation run (first run only), then iterations until search stops or
 * this run has done its share (the caller continues as new with the state).
 */
export async function runSearch(h: SearchHolder): Promise<SearchEnd> {
  const { context } = h;
  if (h.state.candidates.length === 0) {
    const seedId = candidateIdFor(specFingerprint(context.seed));
    const batch = await evaluateBatch(context, {
      recordId: recordIds.seedValidation,
      phase: 'validation',
      split: 'validation',
      caseIds: context.dataset.validationIds,
      candidateId: seedId,
      spec: context.seed,
      seed: h.state.validationSeed,
    });
    h.state = admitSeed(h.state, context.seed, asEvaluations(batch), chargeOf(batch, true));
    commit(h);
  }
  for (let done = 0; ; done++) {
    const stop = stopReason(h);
    if (stop) return { kind: 'stopped', stopReason: stop };
    if (done >= context.iterationsPerRun || (done > 0 && workflowInfo().continueAsNewSuggested)) return { kind: 'continue' };
    if (!(await runMergeIfDue(h))) await runIteration(h);
    commit(h);
  }
}

function commit(h: SearchHolder): void {
  if (onVersion2(h.context)) h.committed = h.state;
}

/** One reflective mutation attempt; every way it can end is logged in the state. */
async function runIteration(h: SearchHolder): Promise<void> {
  const { context } = h;
  const planned = planIteration(h.state, context.dataset.feedbackIds, context.options.frontier);
  h.state = planned.state;
  const plan: IterationPlan = planned.plan;
  const n = plan.iteration;
  const parent = findCandidate(h.state, plan.parentId)!;
  const minibatch = (recordId: string, phase: string, candidateId: string, spec: SkillSpec): BatchRequest => ({
    recordId,
    phase,
    iteration: n,
    split: 'feedback',
    caseIds: plan.caseIds,
    candidateId,
    spec,
    seed: plan.pairedSeed,
  });

  const parentBatch = await tryBatch(context, minibatch(recordIds.parentMinibatch(n), 'feedback-parent', parent.id, parent.spec));
  if ('failed' in parentBatch) {
    h.state = rejectIteration(chargeMetricCalls(h.state, plan.caseIds.length), plan, { outcome: 'evaluation_failed', reason: `parent evaluation failed: ${parentBatch.failed}` });
    return;
  }
  const parentRun = recordMinibatch(h.state, plan, asEvaluations(parentBatch), chargeOf(parentBatch));
  h.state = parentRun.state;
  const parentTotal = scoreTotal(parentRun.run.scores);

  let screening;
  try {
    screening = await reflector.reflectOnMinibatch({
      experimentId: context.experimentId,
      iteration: n,
      dataset: { id: context.dataset.id, version: context.dataset.version },
      parentSpec: parent.spec,
      component: plan.component,
      evaluationRecordId: parentBatch.recordId,
      poolFingerprints: [...poolFingerprints(h.state)],
      ...(context.skillId ? { skill: { scopeKey: context.scopeKey, skillId: context.skillId } } : {}),
    });
  } catch (e) {
    if (isCancellation(e)) throw e;
    h.state = rejectIteration(h.state, plan, { outcome: 'invalid_reflection', reason: `reflector failed: ${failureMessage(e)}`, parentMinibatchTotal: parentTotal });
    return;
  }
  if (onVersion2(context) && screening.usage) {
    h.state = { ...h.state, spend: chargeReflectorSpend(h.state.spend, reflectionSpend(screening.usage, context.options.reflectorPricing)) };
  }
  if (!screening.ok) {
    h.state = rejectIteration(h.state, plan, { outcome: screening.outcome, reason: screening.reason, parentMinibatchTotal: parentTotal });
    return;
  }

  const childId = candidateIdFor(screening.fingerprint);
  const childBatch = await tryBatch(context, minibatch(recordIds.childMinibatch(n), 'feedback-child', childId, screening.spec));
  if ('failed' in childBatch) {
    h.state = rejectIteration(chargeMetricCalls(h.state, plan.caseIds.length), plan, {
      outcome: 'evaluation_failed',
      reason: `child evaluation failed: ${childBatch.failed}`,
      parentMinibatchTotal: parentTotal,
      childId,
    });
    return;
  }
  const childRun = recordMinibatch(h.state, plan, asEvaluations(childBatch), chargeOf(childBatch));
  h.state = childRun.state;
  const verdict = judgeMinibatch(parentRun.run, childRun.run);
  if (!verdict.accepted) {
    h.state = rejectIteration(h.state, plan, {
      outcome: 'not_better',
      reason: verdict.reason,
      parentMinibatchTotal: verdict.parentTotal,
      childMinibatchTotal: verdict.childTotal,
      childId,
    });
    return;
  }

  const validation = await tryBatch(context, {
    recordId: recordIds.childValidation(n),
    phase: 'validation',
    iteration: n,
    split: 'validation',
    caseIds: context.dataset.validationIds,
    candidateId: childId,
    spec: screening.spec,
    seed: h.state.validationSeed,
  });
  if ('failed' in validation) {
    h.state = rejectIteration(chargeMetricCalls(h.state, context.dataset.validationIds.length), plan, {
      outcome: 'evaluation_failed',
      reason: `child validation failed: ${validation.failed}`,
      parentMinibatchTotal: verdict.parentTotal,
      childMinibatchTotal: verdict.childTotal,
      childId,
    });
    return;
  }
  const { ok: _ok, rationale: _r, ...child } = screening;
  h.state = admitChild(h.state, plan, child, verdict, asEvaluations(validation), { ...chargeOf(validation, true), maxMerges: context.options.merge?.maxMerges });
}

/**
 * A merge iteration when one is due and a pair qualifies (merge-state.ts); returns
 * whether it took the iteration. Only states with a merge schedule (searchVersion 2,
 * merge enabled) ever have one due.
 */
async function runMergeIfDue(h: SearchHolder): Promise<boolean> {
  const { context } = h;
  if (!h.state.merge || !context.options.merge) return false;
  const planned = planMerge(h.state, { frontier: context.options.frontier, subsampleSize: context.options.merge.subsampleSize });
  h.state = planned.state;
  if (!planned.plan) return false;
  await runMerge(h, planned.plan);
  return true;
}

async function runMerge(h: SearchHolder, plan: MergePlan): Promise<void> {
  const { context } = h;
  const n = plan.iteration;
  const batch = (recordId: string, caseIds: string[]): BatchRequest => ({
    recordId,
    phase: 'merge',
    iteration: n,
    split: 'validation',
    caseIds,
    candidateId: plan.childId,
    spec: plan.proposal.spec,
    seed: plan.seed,
  });
  const sub = await tryBatch(context, batch(recordIds.mergeSubsample(n), plan.subsampleCaseIds));
  if ('failed' in sub) {
    h.state = rejectMerge(chargeMetricCalls(h.state, plan.subsampleCaseIds.length), plan, { outcome: 'evaluation_failed', reason: `merge evaluation failed: ${sub.failed}` });
    return;
  }
  const recorded = recordMergeSubsample(h.state, plan, asEvaluations(sub), chargeOf(sub));
  h.state = recorded.state;
  const verdict = judgeMerge(plan.proposal, recorded.scores);
  const totals = { parentMinibatchTotal: verdict.parentTotal, childMinibatchTotal: verdict.childTotal };
  if (!verdict.accepted) {
    h.state = rejectMerge(h.state, plan, { outcome: 'not_better', reason: verdict.reason, ...totals });
    return;
  }
  let rest: EvaluationBatchResult | undefined;
  if (plan.restCaseIds.length > 0) {
    const ran = await tryBatch(context, batch(recordIds.mergeValidation(n), plan.restCaseIds));
    if ('failed' in ran) {
      h.state = rejectMerge(chargeMetricCalls(h.state, plan.restCaseIds.length), plan, {
        outcome: 'evaluation_failed',
        reason: `merge validation failed: ${ran.failed}`,
        ...totals,
      });
      return;
    }
    rest = ran;
  }
  h.state = admitMerge(h.state, plan, verdict, recorded.scores, rest ? asEvaluations(rest) : [], {
    ...(rest ? chargeOf(rest, true) : {}),
    subsampleObjectives: { ...sub.objectives, ...(sub.usage ?? {}) },
  });
}
