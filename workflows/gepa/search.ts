import { executeChild, isCancellation, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import {
  admitChild,
  admitSeed,
  candidateIdFor,
  chargeMetricCalls,
  findCandidate,
  judgeMinibatch,
  planIteration,
  poolFingerprints,
  recordMinibatch,
  rejectIteration,
  scoreTotal,
  searchStopReason,
  specFingerprint,
  type GepaSearchState,
  type IterationPlan,
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
}

export type SearchEnd = { kind: 'stopped'; stopReason: 'max_iterations' | 'metric_budget' } | { kind: 'continue' };

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

/** Evaluates one candidate on some cases as a child workflow; only scores come back. */
export function evaluateBatch(context: ExperimentContext, request: BatchRequest): Promise<EvaluationBatchResult> {
  const input: EvaluationBatchInput = {
    ...request,
    experimentId: context.experimentId,
    dataset: { id: context.dataset.id, version: context.dataset.version },
    evaluator: { taskQueue: context.evaluatorTaskQueue, chunkSize: context.options.evaluationChunkSize, concurrency: context.options.evaluationConcurrency },
    at: new Date().toISOString(),
  };
  return executeChild(evaluationBatchWorkflow, { workflowId: evaluationWorkflowId(context.workflowId, request.recordId), args: [input] });
}

/** The batch's scores in the shape core's transitions check (one evaluation per case). */
export function asEvaluations(batch: EvaluationBatchResult): { caseId: string; score: number }[] {
  return batch.caseIds.map((caseId, i) => ({ caseId, score: batch.scores[i] }));
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
    h.state = admitSeed(h.state, context.seed, asEvaluations(batch));
  }
  for (let done = 0; ; done++) {
    const stop = searchStopReason(h.state);
    if (stop) return { kind: 'stopped', stopReason: stop };
    if (done >= context.iterationsPerRun || (done > 0 && workflowInfo().continueAsNewSuggested)) return { kind: 'continue' };
    await runIteration(h);
  }
}

/** One reflective mutation attempt; every way it can end is logged in the state. */
async function runIteration(h: SearchHolder): Promise<void> {
  const { context } = h;
  const planned = planIteration(h.state, context.dataset.feedbackIds);
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
  const parentRun = recordMinibatch(h.state, plan, asEvaluations(parentBatch));
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
    });
  } catch (e) {
    if (isCancellation(e)) throw e;
    h.state = rejectIteration(h.state, plan, { outcome: 'invalid_reflection', reason: `reflector failed: ${failureMessage(e)}`, parentMinibatchTotal: parentTotal });
    return;
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
  const childRun = recordMinibatch(h.state, plan, asEvaluations(childBatch));
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
  h.state = admitChild(h.state, plan, screening, verdict, asEvaluations(validation));
}
