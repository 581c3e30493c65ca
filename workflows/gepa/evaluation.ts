import { ActivityCancellationType, ApplicationFailure, isCancellation, log, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { EvaluatorActivities } from '../../activities/gepa/evaluator-contract';
import { ACTIVITY_NOT_REGISTERED } from '../../core/gepa/evaluator-contract';
import { alignEvaluations, EvaluationContractError, EvaluatorDescriptionSchema, summarizeBatch, type Case, type Evaluation, type EvaluatorDescription } from '../../core';
import { failureMessage } from '../../core/failure-message';
import { checkEvaluationBatchInput } from '../../core/workflow-inputs';
import { EVALUATOR_CONTRACT_ERROR } from '../../core/failure-types';
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
  // Batches of experiments started before resume and the cache existed keep their steps.
  if (input.cache) return evaluateWithRecordsAndCache(input, input.cache);
  const cases = await storage.loadExperimentCases({ dataset: input.dataset, caseIds: input.caseIds });
  const evaluations: Evaluation[] = await evaluateCases(input, cases);
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

function evaluatorActivities(taskQueue: string) {
  return proxyActivities<EvaluatorActivities>({
    taskQueue,
    startToCloseTimeout: '10 minutes',
    // Evaluators heartbeat (at least once a minute) so a cancelled experiment stops them.
    heartbeatTimeout: '1 minute',
    retry: evaluatorRetry,
    cancellationType: ActivityCancellationType.TRY_CANCEL,
  });
}

/** The cases in chunks on the evaluator task queue (bounded concurrency), each answer checked against the contract. */
async function evaluateCases(input: EvaluationBatchInput, cases: Case[]): Promise<Evaluation[]> {
  const evaluator = evaluatorActivities(input.evaluator.taskQueue);
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
      if (e instanceof EvaluationContractError) throw ApplicationFailure.nonRetryable(e.message, EVALUATOR_CONTRACT_ERROR);
      throw e;
    }
  });
  return answers.flat();
}

/**
 * The evaluator's versions, from its optional describeEvaluator activity; undefined when
 * it has none (or answers something else): then nothing is cached.
 */
export async function describeEvaluator(taskQueue: string): Promise<EvaluatorDescription | undefined> {
  const describe = proxyActivities<EvaluatorActivities>({
    taskQueue,
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '2 minutes',
    retry: { initialInterval: '1 second', maximumAttempts: 3, nonRetryableErrorTypes: [ACTIVITY_NOT_REGISTERED] },
    cancellationType: ActivityCancellationType.TRY_CANCEL,
  });
  let answer: unknown;
  try {
    answer = await describe.describeEvaluator();
  } catch (e) {
    if (isCancellation(e)) throw e;
    log.info('the evaluator does not describe its versions: evaluations are not cached', { taskQueue, error: failureMessage(e) });
    return undefined;
  }
  const parsed = EvaluatorDescriptionSchema.safeParse(answer);
  if (!parsed.success) {
    log.warn('describeEvaluator answered outside the contract: evaluations are not cached', { taskQueue, issues: parsed.error.issues.map((i) => i.message).join('; ') });
    return undefined;
  }
  return parsed.data;
}

/**
 * A batch of an experiment on this version: a finished record is returned as it is (a
 * resumed experiment); otherwise the cache answers what it holds for this candidate,
 * seed and evaluator versions, the evaluator runs the rest, and the record and the cache
 * are written in one step.
 */
async function evaluateWithRecordsAndCache(input: EvaluationBatchInput, cache: NonNullable<EvaluationBatchInput['cache']>): Promise<EvaluationBatchResult> {
  if (cache.described !== undefined) return evaluateBesideDescribe(input, cache, cache.described);
  const described = cache.enabled ? await describeEvaluator(input.evaluator.taskQueue) : undefined;
  const prepared = await storage.prepareEvaluationBatch(prepareInput(input, cache, described));
  if (prepared.recorded) return prepared.recorded;
  const ran = prepared.cases.length > 0 ? await evaluateCases(input, prepared.cases) : [];
  return recordBatch(input, cache, prepared.hits, ran, described);
}

function prepareInput(input: EvaluationBatchInput, cache: NonNullable<EvaluationBatchInput['cache']>, described: EvaluatorDescription | undefined) {
  return {
    experimentId: input.experimentId,
    recordId: input.recordId,
    dataset: input.dataset,
    caseIds: input.caseIds,
    candidateId: input.candidateId,
    seed: input.seed,
    hitsSpendBudget: cache.hitsSpendBudget,
    ...(described ? { evaluator: { taskQueue: input.evaluator.taskQueue, ...described } } : {}),
  };
}

const sameVersions = (a: EvaluatorDescription | undefined, b: EvaluatorDescription | undefined) =>
  a !== undefined && b !== undefined && a.evaluatorVersion === b.evaluatorVersion && a.modelVersion === b.modelVersion;

/**
 * A batch that knows what the evaluator described to the experiment's last batch (runs
 * that describe the evaluator beside the batches): the cache is looked up under those
 * versions at once, and the evaluator is asked again while the cases run, so asking
 * costs no time before the first chunk. The record and the cache take the versions it
 * answers now; the cache's answers count only if they were given under the same
 * versions, else those cases are looked up under the new ones and the rest run again, so
 * a changed evaluator or model version never hits.
 */
async function evaluateBesideDescribe(
  input: EvaluationBatchInput,
  cache: NonNullable<EvaluationBatchInput['cache']>,
  known: EvaluatorDescription | null,
): Promise<EvaluationBatchResult> {
  const assumed = cache.enabled ? (known ?? undefined) : undefined;
  const prepared = await storage.prepareEvaluationBatch(prepareInput(input, cache, assumed));
  if (prepared.recorded) return prepared.recorded;
  // Scheduled before the chunks, so it is not queued behind them.
  const describing = cache.enabled ? describeEvaluator(input.evaluator.taskQueue) : Promise.resolve(undefined);
  describing.catch(() => undefined); // awaited below (a cancellation ends the chunks too)
  let ran = prepared.cases.length > 0 ? await evaluateCases(input, prepared.cases) : [];
  const described = await describing;
  let hits = prepared.hits;
  if (hits.length > 0 && !sameVersions(assumed, described)) {
    const stale = new Set(hits.map((e) => e.caseId));
    log.info('the evaluator describes other versions than the cache was read under: its answers are looked up again', { taskQueue: input.evaluator.taskQueue });
    const again = await storage.prepareEvaluationBatch(prepareInput(input, cache, described));
    if (again.recorded) return again.recorded;
    hits = again.hits.filter((e) => stale.has(e.caseId));
    const rerun = again.cases.filter((c) => stale.has(c.id));
    if (rerun.length > 0) ran = [...ran, ...(await evaluateCases(input, rerun))];
  }
  return recordBatch(input, cache, hits, ran, described);
}

/** The batch's evaluations in case order, its record (and the cache) written, and what goes back to the experiment. */
async function recordBatch(
  input: EvaluationBatchInput,
  cache: NonNullable<EvaluationBatchInput['cache']>,
  hits: Evaluation[],
  ran: Evaluation[],
  described: EvaluatorDescription | undefined,
): Promise<EvaluationBatchResult> {
  const byId = new Map([...hits, ...ran].map((e) => [e.caseId, e]));
  const evaluations = input.caseIds.map((id) => byId.get(id)!);
  const hitCaseIds = hits.map((e) => e.caseId);
  const result = summarizeBatch({ recordId: input.recordId, caseIds: input.caseIds, evaluations, hitCaseIds, hitsSpendBudget: cache.hitsSpendBudget, evaluator: described });
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
    charged: result.charged,
    cacheHits: hitCaseIds,
    ...(described ? { evaluator: described, cache: { taskQueue: input.evaluator.taskQueue, dataset: input.dataset } } : {}),
  });
  return result;
}
