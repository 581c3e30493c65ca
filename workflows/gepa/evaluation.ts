import { ActivityCancellationType, ApplicationFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { EvaluatorActivities } from '../../activities/gepa/evaluator-contract';
import { alignEvaluations, EvaluationContractError, type Evaluation } from '../../core';
import { checkEvaluationBatchInput } from '../../core/workflow-inputs';
import { requireValidInput } from '../input-guard';
import { evaluatorRetry, storageRetry } from '../retry-policies';
import { chunk, mapLimit } from '../../core/concurrency';
import { objectiveMeans } from '../../core/gepa/objectives';
import type { EvaluationBatchInput, EvaluationBatchResult } from '../../core/gepa/experiment-types';

// Loading cases and writing the record are short S3 calls: local activities save two
// server round trips per batch (they are still recorded, and retried, by Temporal).
const storage = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: storageRetry });

/**
 * One evaluation batch of an experiment, as a child workflow: the candidate's cases are
 * split into chunks that fan out to the application's evaluator task queue (bounded
 * concurrency, so several evaluator workers share one batch), every answer is checked
 * against the contract, and the full evaluations are written to the experiment record.
 * Only scores go back to the experiment, so its history stays small whatever the
 * evaluator's outputs and traces weigh; this batch's history is bounded by one batch.
 */
export async function evaluationBatchWorkflow(input: EvaluationBatchInput): Promise<EvaluationBatchResult> {
  requireValidInput('evaluation batch', checkEvaluationBatchInput(input));
  const evaluator = proxyActivities<EvaluatorActivities>({
    taskQueue: input.evaluator.taskQueue,
    startToCloseTimeout: '10 minutes',
    // Evaluators heartbeat (at least once a minute) so a cancelled experiment stops them.
    heartbeatTimeout: '1 minute',
    retry: evaluatorRetry,
    cancellationType: ActivityCancellationType.TRY_CANCEL,
  });
  const cases = await storage.loadExperimentCases({ dataset: input.dataset, caseIds: input.caseIds });
  const chunks = chunk(cases, input.evaluator.chunkSize);
  const answers = await mapLimit(chunks, input.evaluator.concurrency, async (chunkCases) => {
    const raw = await evaluator.evaluateCandidate({ experimentId: input.experimentId, candidateId: input.candidateId, spec: input.spec, cases: chunkCases, seed: input.seed });
    try {
      return alignEvaluations(
        chunkCases.map((c) => c.id),
        raw,
      ).evaluations;
    } catch (e) {
      // A contract violation is the evaluator's answer, not a transient fault: no retry.
      if (e instanceof EvaluationContractError) throw ApplicationFailure.nonRetryable(e.message, 'EvaluatorContractError');
      throw e;
    }
  });
  const evaluations: Evaluation[] = answers.flat();
  await storage.recordExperimentEvaluation({
    experimentId: input.experimentId,
    recordId: input.recordId,
    phase: input.phase,
    iteration: input.iteration,
    split: input.split,
    candidateId: input.candidateId,
    seed: input.seed,
    caseIds: input.caseIds,
    evaluations,
    at: input.at,
  });
  return { recordId: input.recordId, caseIds: input.caseIds, scores: evaluations.map((e) => e.score), objectives: objectiveMeans(evaluations) };
}
