/**
 * The GEPA experiment workflow (docs/design.md "GEPA experiment workflow"; the loop itself is
 * described at the top of core/gepa/state.ts and its transitions are pure).
 *
 *   prepare (activity)   load or freeze the dataset, re-check it, resolve the parent,
 *                        write experiment.json once; or, resuming, load the request and
 *                        the latest checkpoint
 *   pre-flight           refuse a budget that cannot afford three proposals
 *   search               seed on Validation, then iterations (reflections and merges),
 *                        raced against the time limit (a durable timer); continue-as-new
 *                        every N iterations with the compact state (ids, specs, scores,
 *                        PRNG state)
 *   selection            Validation mean, k-fold, or multi-seed
 *   holdout              seed vs the selected winner under one paired seed
 *   submission           optional, governed; approval waits in its own workflow
 *   result               result.json and the returned report
 *
 * History stays small: cases and evaluator outputs never enter it. Evaluation runs in
 * child workflows (one per batch) that fan out to the evaluator task queue and write
 * the full records to S3; the experiment sees scores only.
 *
 * Versions: an experiment prepared by older code (its prepare answer has no
 * searchVersion) keeps its original steps on replay; the new ones are keyed on that
 * recorded answer (docs/versioning.md).
 */
import {
  ApplicationFailure,
  CancellationScope,
  continueAsNew,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  completedResult,
  ExperimentRequestSchema,
  failedResult,
  initSearchState,
  LOG_TAIL_LIMIT,
  preflightProblem,
  planProposals,
  totalSpend,
  winnerOf,
  withTracking,
  type ExperimentRequest,
  type ExperimentResult,
  type GepaSearchState,
  type PreflightShape,
} from '../core';
import { checkExperimentInput } from '../core/workflow-inputs';
import { withDeadline } from './gepa/deadline';
import { failureMessage } from '../core/failure-message';
import { NON_RETRYABLE } from '../core/failure-types';
import { experimentProgressQuery } from '../core/workflow-api/experiment';
import { runHoldout, submitWinner } from './gepa/finish';
import { chooseWinner } from './gepa/selection';
import { experimentIdFromWorkflowId } from '../core/workflow-ids';
import { onVersion2, runSearch, type SearchHolder } from './gepa/search';
import { requireValidInput } from './input-guard';
import { storageRetry } from './retry-policies';
import type {
  ContinuedExperiment,
  DatasetIndex,
  ExperimentContext,
  ExperimentPhase,
  ExperimentProgress,
  ExperimentReport,
  ExperimentWorkflowInput,
  ResumeRequest,
  SubmissionOutcome,
} from '../core/gepa/experiment-types';

import { describeEvaluator } from './gepa/evaluation';

export { evaluationBatchWorkflow } from './gepa/evaluation';
export type { ExperimentProgress, ExperimentReport, ExperimentWorkflowInput } from '../core/gepa/experiment-types';

export { experimentProgressQuery };

const DEFAULT_ITERATIONS_PER_RUN = 20;

/**
 * Runs that record this patch spend less time between evaluations (searchVersion 2 only):
 * the evaluator is described beside prepareExperiment and then beside each batch instead
 * of before it (context.evaluatorSeen), the progress record after the search is written
 * while selection and Holdout run, and the last checkpoint is written with the result
 * (one local activity).
 * Runs recorded before keep their steps on replay.
 */
export const FEWER_SERIAL_STEPS = 'gepa-fewer-serial-steps';

const storage = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: storageRetry });
// The experiment's last write (result and checkpoint) has nothing to run beside it: a local activity saves its server round trips.
const lastWrite = proxyLocalActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: storageRetry });

const invalid = (message: string) => ApplicationFailure.nonRetryable(message, NON_RETRYABLE.experimentRequest);
const notStarted = (experimentId: string, e: unknown) =>
  // Fail with the reason itself (bad dataset, unknown parent…), not "activity task failed".
  ApplicationFailure.create({ message: `experiment ${experimentId} could not start: ${failureMessage(e)}`, type: NON_RETRYABLE.experimentNotStarted, nonRetryable: true });

function iterationsPerRun(input: ExperimentWorkflowInput): number {
  // The state keeps the last LOG_TAIL_LIMIT log entries; each run stores its own before moving on.
  return Math.max(1, Math.min(input.iterationsPerRun ?? DEFAULT_ITERATIONS_PER_RUN, LOG_TAIL_LIMIT));
}

function preflightShape(request: ExperimentRequest, dataset: DatasetIndex, state?: GepaSearchState): PreflightShape {
  return {
    maxMetricCalls: request.options.maxMetricCalls,
    maxIterations: request.options.maxIterations,
    feedbackSize: dataset.feedbackIds.length,
    validationSize: dataset.validationIds.length,
    holdoutSize: dataset.holdout.length,
    reflectionBatchSize: request.options.reflectionBatchSize,
    selection: request.options.selection,
    ...(state ? { used: state.budget.used, completedIterations: state.iteration, seedEvaluated: state.candidates.length > 0 } : {}),
  };
}

/** First run: validate, prepare, and build the initial context and state. */
async function start(input: ExperimentWorkflowInput, fewerSerialSteps: boolean): Promise<ContinuedExperiment> {
  const parsed = ExperimentRequestSchema.safeParse(input.request);
  if (!parsed.success) throw invalid(`invalid experiment request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  const request = parsed.data;
  const { workflowId } = workflowInfo();
  const experimentId = request.experimentId ?? experimentIdFromWorkflowId(workflowId);
  const startedAt = new Date().toISOString();
  // The evaluator's versions key the cache: asked while the experiment is prepared, when the request names its queue.
  const queue = request.options.evaluatorTaskQueue;
  const describing = fewerSerialSteps && queue && (request.options.evaluationCache?.enabled ?? true) ? describeEvaluator(queue) : undefined;
  describing?.catch(() => undefined); // awaited below, unless preparing fails first
  let prepared;
  try {
    prepared = await storage.prepareExperiment({ experimentId, workflowId, request, at: startedAt });
  } catch (e) {
    throw notStarted(experimentId, e);
  }
  // initSearchState reads only split sizes and Validation ids; the cases themselves stay in S3.
  const toCases = (ids: string[]) => ids.map((id) => ({ id, input: null, critical: false }));
  const sizes = {
    feedback: toCases(prepared.dataset.feedbackIds),
    validation: toCases(prepared.dataset.validationIds),
    holdout: toCases(prepared.dataset.holdout.map((c) => c.id)),
  };
  let state: GepaSearchState;
  try {
    state = initSearchState({ experimentId, options: request.options, dataset: sizes });
  } catch (e) {
    throw invalid((e as Error).message);
  }
  const v2 = prepared.searchVersion === 2;
  if (v2) {
    const shape = preflightShape(request, prepared.dataset);
    const problem = preflightProblem(shape);
    if (problem) throw invalid(problem);
    state = withTracking(state, { plan: planProposals(shape), merge: request.options.merge.enabled });
  }
  const context: ExperimentContext = {
    experimentId,
    workflowId,
    startedAt,
    seed: request.seed,
    scope: request.scope,
    scopeKey: prepared.scopeKey,
    skillId: request.skillId,
    parentRevisionId: prepared.parentRevisionId,
    submit: request.submit,
    options: request.options,
    evaluatorTaskQueue: request.options.evaluatorTaskQueue ?? prepared.defaultEvaluatorTaskQueue,
    dataset: prepared.dataset,
    deadlineMs: request.options.timeLimitMs === undefined ? undefined : new Date().getTime() + request.options.timeLimitMs,
    iterationsPerRun: iterationsPerRun(input),
    ...(v2 ? { searchVersion: 2 as const, segment: 0 } : {}),
  };
  if (v2 && describing) {
    const described = await describing;
    context.evaluatorSeen = { seen: true, ...(described ? { described } : {}) };
  }
  return { context, state, ...(v2 ? { committed: state } : {}), loggedThrough: 0, runs: 0 };
}

/**
 * A resumed experiment (`evolution optimize --resume`): the stored request and dataset,
 * the latest checkpoint (an iteration boundary), a new budget or iteration limit when
 * given, and the pre-flight check from there. Finished batches and reflections are
 * reused from the records, so nothing finished runs again.
 */
async function resume(input: ExperimentWorkflowInput & { resume: ResumeRequest }): Promise<ContinuedExperiment> {
  const { workflowId } = workflowInfo();
  const { experimentId, segment } = input.resume;
  const at = new Date().toISOString();
  let prepared;
  try {
    prepared = await storage.prepareResume({
      experimentId,
      workflowId,
      segment,
      at,
      ...(input.resume.maxMetricCalls !== undefined ? { maxMetricCalls: input.resume.maxMetricCalls } : {}),
      ...(input.resume.maxIterations !== undefined ? { maxIterations: input.resume.maxIterations } : {}),
    });
  } catch (e) {
    throw notStarted(experimentId, e);
  }
  const { request } = prepared;
  const checkpoint = prepared.state;
  const shape = preflightShape(request, prepared.dataset, checkpoint);
  const problem = preflightProblem(shape);
  if (problem) throw invalid(`experiment ${experimentId} cannot resume: ${problem}`);
  // proposalsPossible counts the whole experiment: those done plus what the budget allows from here.
  const state = withTracking(
    { ...checkpoint, maxIterations: request.options.maxIterations, budget: { ...checkpoint.budget, max: request.options.maxMetricCalls } },
    { plan: { proposalsPossible: checkpoint.iteration + planProposals(shape).proposalsPossible }, merge: request.options.merge.enabled },
  );
  const context: ExperimentContext = {
    experimentId,
    workflowId,
    startedAt: prepared.startedAt,
    seed: request.seed,
    scope: request.scope,
    scopeKey: prepared.scopeKey,
    skillId: request.skillId,
    parentRevisionId: prepared.parentRevisionId,
    submit: request.submit,
    options: request.options,
    evaluatorTaskQueue: request.options.evaluatorTaskQueue ?? prepared.defaultEvaluatorTaskQueue,
    dataset: prepared.dataset,
    deadlineMs: request.options.timeLimitMs === undefined ? undefined : new Date().getTime() + request.options.timeLimitMs,
    iterationsPerRun: iterationsPerRun(input),
    searchVersion: 2,
    segment,
  };
  return { context, state, committed: state, loggedThrough: state.iteration, runs: 0 };
}

export async function experimentWorkflow(input: ExperimentWorkflowInput): Promise<ExperimentReport> {
  requireValidInput('experiment', checkExperimentInput(input));
  let phase: ExperimentPhase = 'preparing';
  let holder: SearchHolder | undefined;
  const runs = (input.continued?.runs ?? 0) + 1;
  setHandler(experimentProgressQuery, () => progress(holder, phase, runs));
  const fewerSerialSteps = patched(FEWER_SERIAL_STEPS);

  const run = input.continued ?? (input.resume ? await resume({ ...input, resume: input.resume }) : await start(input, fewerSerialSteps));
  holder = { context: run.context, state: run.state, ...(run.committed ? { committed: run.committed } : {}) };
  const { context } = run;
  const v2 = onVersion2(context);
  const overlapped = fewerSerialSteps && v2;
  // A resumed run, or one continued from a run before the patch: its first batch asks the evaluator first.
  if (overlapped && !context.evaluatorSeen) context.evaluatorSeen = { seen: false };
  let loggedThrough = run.loggedThrough;
  /** The progress record written while the next steps run (overlapped runs), awaited before the next write. */
  let pendingFlush: Promise<string | undefined> | undefined;

  /** Stores the log entries of iterations finished since the last flush, and a state checkpoint (an iteration boundary on searchVersion 2). */
  async function flush(state: GepaSearchState = holder!.committed ?? holder!.state): Promise<string | undefined> {
    const entries = state.log.filter((e) => e.iteration >= loggedThrough);
    try {
      await storage.recordExperimentProgress({ experimentId: context.experimentId, entries, state });
      loggedThrough = state.iteration;
      return undefined;
    } catch (e) {
      return `recording the iteration log failed: ${failureMessage(e)}`;
    }
  }

  const report = (result: ExperimentResult, submission: SubmissionOutcome): ExperimentReport => ({
    ...result,
    workflowId: context.workflowId,
    dataset: { id: context.dataset.id, version: context.dataset.version },
    ...(context.parentRevisionId !== undefined ? { parentRevisionId: context.parentRevisionId } : {}),
    submission,
    startedAt: context.startedAt,
    finishedAt: new Date().toISOString(),
    runs,
  });

  async function finish(r: ExperimentReport): Promise<ExperimentReport> {
    phase = 'done';
    try {
      await storage.recordExperimentResult({ report: r, ...(v2 ? { segment: context.segment ?? 0 } : {}) });
    } catch (e) {
      const error = `recording the result failed: ${failureMessage(e)}`;
      return { ...r, error: r.error ? `${r.error}; ${error}` : error };
    }
    return r;
  }

  const notSubmitted = (why: string): SubmissionOutcome => (context.submit ? { status: 'skipped', reason: why } : { status: 'not_requested', reason: 'submit was not requested' });

  /**
   * Overlapped runs: the last checkpoint goes with the result, in one step. If that step
   * fails, the two writes are made apart, as on runs before, so the report says which failed.
   */
  async function finishWithCheckpoint(r: ExperimentReport): Promise<ExperimentReport> {
    phase = 'done';
    const state = holder!.committed ?? holder!.state;
    const entries = state.log.filter((e) => e.iteration >= loggedThrough);
    try {
      await lastWrite.recordExperimentResult({ report: r, segment: context.segment ?? 0, progress: { experimentId: context.experimentId, entries, state } });
      loggedThrough = state.iteration;
      return r;
    } catch {
      const checkpointError = await flush();
      return finish(checkpointError ? { ...r, error: r.error ? `${r.error}; ${checkpointError}` : checkpointError } : r);
    }
  }

  /** searchVersion 2: a cancelled experiment stops cleanly — its checkpoint and result are written, and it can be resumed. */
  function endCancelled(): Promise<ExperimentReport> {
    return CancellationScope.nonCancellable(async () => {
      if (pendingFlush) await pendingFlush;
      await flush();
      const cancelled = failedResult(context.experimentId, holder!.state, {
        stopReason: 'cancelled',
        error: 'the experiment was cancelled; resume it with `evolution optimize --resume`',
        resumes: context.segment,
      });
      return finish(report(cancelled, notSubmitted('the experiment was cancelled: nothing was submitted')));
    });
  }
  const cancelledNow = () => v2 && CancellationScope.current().consideredCancelled;

  phase = 'search';
  let searched;
  try {
    searched = await withDeadline(context.deadlineMs, () => runSearch(holder!));
  } catch (e) {
    if (isCancellation(e)) {
      if (v2) return endCancelled();
      throw e; // an experiment on the older steps ends as cancelled, as it always did
    }
    await flush();
    const failed = failedResult(context.experimentId, holder.state, { stopReason: 'error', error: failureMessage(e), resumes: context.segment });
    return finish(report(failed, notSubmitted('the experiment failed: nothing was submitted')));
  }
  if (searched.timedOut) {
    if (cancelledNow()) return endCancelled();
    await flush();
    const limit = context.options.timeLimitMs;
    const failed = failedResult(context.experimentId, holder.state, {
      stopReason: 'time_limit',
      error: `the search did not finish within its time limit of ${limit} ms`,
      resumes: context.segment,
    });
    return finish(report(failed, notSubmitted('the search exceeded its time limit: nothing was submitted')));
  }
  // Overlapped runs that go on to selection and Holdout write the search's progress meanwhile.
  const flushing = flush();
  if (overlapped && searched.value.kind === 'stopped') pendingFlush = flushing;
  let flushError = pendingFlush ? undefined : await flushing;
  if (searched.value.kind === 'continue') {
    if (flushError) {
      const failed = failedResult(context.experimentId, holder.state, { stopReason: 'error', error: flushError, resumes: context.segment });
      return finish(report(failed, notSubmitted('the experiment failed: nothing was submitted')));
    }
    return continueAsNew<typeof experimentWorkflow>({
      continued: { context, state: holder.state, ...(holder.committed ? { committed: holder.committed } : {}), loggedThrough, runs },
    });
  }

  // Search ended normally: from here on a failure returns the partial result with its error.
  try {
    const { stopReason } = searched.value;
    phase = 'holdout';
    const selected = await chooseWinner(holder);
    if (cancelledNow()) return endCancelled();
    const holdout = await runHoldout(context, holder.state, selected.chosen);
    if (pendingFlush) {
      flushError = await pendingFlush;
      pendingFlush = undefined;
    }
    if (cancelledNow()) return endCancelled();
    holder.state = holdout.state;
    // A resumed experiment continues from here, with the Holdout (and selection) spend counted.
    if (v2) holder.committed = holder.state;
    // Overlapped runs write this checkpoint with the result (finishWithCheckpoint).
    const checkpointError = v2 && !overlapped ? await flush() : undefined;
    const result = completedResult(holder.state, {
      stopReason,
      promotion: holdout.promotion,
      ...(selected.report ? { selection: selected.report } : {}),
      resumes: context.segment,
    });
    phase = 'submission';
    const submitted = holdout.error
      ? { submission: notSubmitted(`not submitted: ${holdout.promotion.reason}`) }
      : await submitWinner(context, holder.state, holdout, selected.chosen);
    if (submitted.submission.revisionId) result.submittedRevisionId = submitted.submission.revisionId;
    const errors = [flushError, selected.error, holdout.error, checkpointError, submitted.error].filter((e): e is string => e !== undefined);
    if (errors.length > 0) result.error = errors.join('; ');
    return await (overlapped ? finishWithCheckpoint : finish)(report(result, submitted.submission));
  } catch (e) {
    if (v2 && isCancellation(e)) return endCancelled();
    throw e;
  }
}

function progress(holder: SearchHolder | undefined, phase: ExperimentPhase, runs: number): ExperimentProgress {
  if (!holder) {
    return { experimentId: '', phase, iteration: 0, maxIterations: 0, metricCallsUsed: 0, maxMetricCalls: 0, candidateCount: 0, runs };
  }
  const { state, context } = holder;
  const seeded = state.candidates.length > 0;
  return {
    experimentId: context.experimentId,
    phase,
    iteration: state.iteration,
    maxIterations: state.maxIterations,
    metricCallsUsed: state.budget.used,
    maxMetricCalls: state.budget.max,
    candidateCount: state.candidates.length,
    ...(seeded ? { seedValidationMean: state.candidates[0].validationMean, bestValidationMean: winnerOf(state).validationMean } : {}),
    runs,
    ...(state.proposalsPossible !== undefined ? { proposalsPossible: state.proposalsPossible } : {}),
    ...(state.cacheHits !== undefined ? { cacheHits: state.cacheHits } : {}),
    ...(state.spend !== undefined ? { spend: totalSpend(state.spend) } : {}),
    ...(context.options.maxTokens !== undefined ? { maxTokens: context.options.maxTokens } : {}),
    ...(context.options.maxCostUsd !== undefined ? { maxCostUsd: context.options.maxCostUsd } : {}),
    ...(context.segment ? { resumes: context.segment } : {}),
    ...(onVersion2(context) && CancellationScope.current().consideredCancelled ? { cancelling: true } : {}),
  };
}
