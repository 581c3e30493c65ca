import { isCancellation, ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../../activities';
import {
  assessPromotion,
  chargeBatch,
  chargeMetricCalls,
  holdoutCalls,
  seedCandidate,
  winnerOf,
  type CandidateRecord,
  type EvaluatorDescription,
  type Evidence,
  type GepaSearchState,
  type PromotionAssessment,
} from '../../core';
import { approvalWorkflowId } from '../../core/workflow-ids';
import { approvalExpiryAction } from '../../core/governance/approval-expiry';
import type { approvalWorkflow } from '../approval';
import { APPROVAL_WORKFLOW } from '../../core/workflow-api/approval';
import { decidedWorkOptions, storageRetry } from '../retry-policies';
import { failureMessage } from '../../core/failure-message';
import { recordIds } from '../../core/gepa/ids';
import { chargeOf, evaluateBatch, onVersion2 } from './search';
import type { ExperimentContext, SubmissionOutcome } from '../../core/gepa/experiment-types';
import { searchAttributes } from '../../core/search-attributes';

const storage = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: storageRetry });

export interface HoldoutOutcome {
  state: GepaSearchState;
  promotion: PromotionAssessment;
  /** Winner's mean objectives on Holdout (submission evidence). */
  winnerObjectives: Record<string, number>;
  seedObjectives: Record<string, number>;
  /** The versions the evaluator described for the winner's Holdout run (searchVersion 2). */
  evaluator?: EvaluatorDescription;
  error?: string;
}

/** The candidate selection chose (default: the Validation winner). */
export interface ChosenWinner {
  candidate: CandidateRecord;
  isSeed: boolean;
}

export function validationWinner(state: GepaSearchState): ChosenWinner {
  const w = winnerOf(state);
  return { candidate: w.candidate, isSeed: w.isSeed };
}

/**
 * Frozen confirmation: seed and the selected winner on Holdout under one paired seed (the
 * two batches run in parallel), then the promotion assessment, whose reason is always
 * filled. A failed Holdout run leaves the winner ineligible and reports the error.
 */
export async function runHoldout(context: ExperimentContext, state: GepaSearchState, chosen: ChosenWinner = validationWinner(state)): Promise<HoldoutOutcome> {
  const winner = { id: chosen.candidate.id, isSeed: chosen.isSeed, candidate: chosen.candidate };
  const seed = seedCandidate(state);
  const holdout = context.dataset.holdout;
  const v2 = onVersion2(context);
  const assess = (seedScores: number[], winnerScores: number[]) =>
    assessPromotion({
      winnerIsSeed: winner.isSeed,
      holdoutCases: holdout,
      seedHoldoutScores: seedScores,
      winnerHoldoutScores: winnerScores,
      minHoldoutImprovement: context.options.minHoldoutImprovement,
    });
  if (holdout.length === 0) return { state, promotion: assess([], []), winnerObjectives: {}, seedObjectives: {} };

  // Older runs charge the Holdout up front; searchVersion 2 charges what each batch reports (cache hits are free).
  const chargedUpFront = chargeMetricCalls(state, holdoutCalls(holdout.length, winner.isSeed), 'holdout');
  const caseIds = holdout.map((c) => c.id);
  const seedRecord = v2 ? recordIds.holdoutSeedOf(context.segment) : recordIds.holdoutSeed;
  const winnerRecord = v2 ? recordIds.holdoutWinnerOf(context.segment) : recordIds.holdoutWinner;
  const batch = (recordId: string, candidateId: string, spec = seed.spec) =>
    evaluateBatch(context, {
      recordId,
      phase: recordId === seedRecord ? 'holdout-seed' : 'holdout-winner',
      split: 'holdout',
      caseIds,
      candidateId,
      spec,
      seed: state.holdoutSeed,
    });
  try {
    const [seedRun, winnerRun] = await Promise.all([batch(seedRecord, seed.id), winner.isSeed ? undefined : batch(winnerRecord, winner.id, winner.candidate.spec)]);
    const winnerScores = (winnerRun ?? seedRun).scores;
    const charged = v2 ? [seedRun, winnerRun].reduce((s, run) => (run ? chargeBatch(s, run.caseIds.length, chargeOf(run), 'holdout') : s), state) : chargedUpFront;
    const evaluator = (winnerRun ?? seedRun).evaluator;
    return {
      state: charged,
      promotion: assess(seedRun.scores, winnerScores),
      winnerObjectives: (winnerRun ?? seedRun).objectives,
      seedObjectives: seedRun.objectives,
      ...(evaluator ? { evaluator } : {}),
    };
  } catch (e) {
    if (v2 && isCancellation(e)) throw e; // a cancelled experiment ends as cancelled, not with a failed holdout
    const error = `holdout evaluation failed: ${failureMessage(e)}`;
    return { state: chargedUpFront, promotion: { eligible: false, reason: `${error}; promotion was not assessed` }, winnerObjectives: {}, seedObjectives: {}, error };
  }
}

function objectiveLines(seed: Record<string, number>, winner: Record<string, number>): string[] {
  return Object.entries(winner).map(([name, value]) => `${name}: ${seed[name] !== undefined ? `${seed[name].toFixed(4)} → ` : ''}${value.toFixed(4)}`);
}

/**
 * Governed submission of an eligible winner: the gates run again in an activity and a
 * revision that passes waits in pending_approval, in an approval workflow that outlives
 * this experiment (abandoned child, id from the revision id). Publication later requires
 * the active revision to still be the experiment's parent.
 */
export async function submitWinner(
  context: ExperimentContext,
  state: GepaSearchState,
  holdout: HoldoutOutcome,
  chosen: ChosenWinner = validationWinner(state),
): Promise<{ submission: SubmissionOutcome; error?: string }> {
  if (!context.submit) return { submission: { status: 'not_requested', reason: 'submit was not requested' } };
  if (!holdout.promotion.eligible) return { submission: { status: 'skipped', reason: `not submitted: ${holdout.promotion.reason}` } };
  const comparison = holdout.promotion.holdout!;
  const winner = chosen;
  const evidence: Evidence = {
    experimentId: context.experimentId,
    datasetId: context.dataset.id,
    datasetVersion: context.dataset.version,
    baselineHoldoutScore: comparison.seedMean,
    candidateHoldoutScore: comparison.winnerMean,
    delta: comparison.delta,
    caseCount: comparison.caseCount,
    objectives: objectiveLines(holdout.seedObjectives, holdout.winnerObjectives),
    ...(onVersion2(context)
      ? {
          certifiedWith: {
            evaluatorTaskQueue: context.evaluatorTaskQueue,
            ...(holdout.evaluator?.evaluatorVersion !== undefined ? { evaluatorVersion: holdout.evaluator.evaluatorVersion } : {}),
            ...(holdout.evaluator?.modelVersion !== undefined ? { modelVersion: holdout.evaluator.modelVersion } : {}),
            holdoutSeed: state.holdoutSeed,
            minHoldoutImprovement: context.options.minHoldoutImprovement,
          },
        }
      : {}),
  };
  try {
    const { storageOutageToleranceMs, ...governance } = await storage.loadGovernance();
    // The winner was paid for (evaluations, a holdout): its submission waits out storage
    // outages for the worker's EVOLUTION_STORAGE_OUTAGE_TOLERANCE (recorded with the governance).
    const submitting = proxyActivities<Activities>(decidedWorkOptions(storageOutageToleranceMs));
    const r = await submitting.submitExperimentCandidate({
      experimentId: context.experimentId,
      scope: context.scope,
      skillId: context.skillId!,
      parentRevisionId: context.parentRevisionId!,
      spec: winner.candidate.spec,
      evidence,
      governance,
      at: new Date().toISOString(),
    });
    const submission: SubmissionOutcome = { status: r.status, reason: r.reason, ...(r.revisionStatus ? { revisionId: r.revisionId, revisionStatus: r.revisionStatus } : {}) };
    if (r.revisionStatus === 'pending_approval') {
      const workflowId = approvalWorkflowId(r.revisionId);
      try {
        await startChild<typeof approvalWorkflow>(APPROVAL_WORKFLOW, {
          workflowId,
          args: [
            {
              revision: { scopeKey: r.scopeKey, skillId: context.skillId!, revisionId: r.revisionId },
              timeoutMs: governance.approvalTimeoutMs,
              expiryAction: approvalExpiryAction(r.riskTier, governance.approvalExpiryAction),
              requireParentId: context.parentRevisionId,
              source: 'gepa',
              ...(storageOutageToleranceMs !== undefined ? { storageOutageToleranceMs } : {}),
            },
          ],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          searchAttributes: searchAttributes({ kind: 'approval', scopeKey: r.scopeKey, skillId: context.skillId!, revisionId: r.revisionId }),
        });
      } catch (e) {
        if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
      }
      submission.approvalWorkflowId = workflowId;
    }
    return { submission };
  } catch (e) {
    const error = `submission failed: ${failureMessage(e)}`;
    return { submission: { status: 'failed', reason: error }, error };
  }
}
