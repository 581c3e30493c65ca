/**
 * The GEPA experiment workflow (DESIGN.md "GEPA experiment workflow"; the loop itself is
 * described at the top of core/gepa/state.ts and its transitions are pure).
 *
 *   prepare (activity)   load or freeze the dataset, re-check it, resolve the parent,
 *                        write experiment.json once
 *   search               seed on Validation, then iterations, raced against the time
 *                        limit (a durable timer); continue-as-new every N iterations
 *                        with the compact state (ids, specs, scores, PRNG state)
 *   holdout              seed vs Validation winner under one paired seed
 *   submission           optional, governed; approval waits in its own workflow
 *   result               result.json and the returned report
 *
 * History stays small: cases and evaluator outputs never enter it. Evaluation runs in
 * child workflows (one per batch) that fan out to the evaluator task queue and write
 * the full records to S3; the experiment sees scores only.
 */
import { ApplicationFailure, continueAsNew, isCancellation, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { completedResult, ExperimentRequestSchema, failedResult, initSearchState, LOG_TAIL_LIMIT, winnerOf, type ExperimentResult, type GepaSearchState } from '../core';
import { checkExperimentInput } from '../core/workflow-inputs';
import { withDeadline } from './gepa/deadline';
import { failureMessage } from '../core/failure-message';
import { experimentProgressQuery } from '../core/workflow-api/experiment';
import { runHoldout, submitWinner } from './gepa/finish';
import { experimentIdFromWorkflowId } from '../core/workflow-ids';
import { runSearch, type SearchHolder } from './gepa/search';
import { requireValidInput } from './input-guard';
import { storageRetry } from './retry-policies';
import type {
  ContinuedExperiment,
  ExperimentContext,
  ExperimentPhase,
  ExperimentProgress,
  ExperimentReport,
  ExperimentWorkflowInput,
  SubmissionOutcome,
} from '../core/gepa/experiment-types';

export { evaluationBatchWorkflow } from './gepa/evaluation';
export type { ExperimentProgress, ExperimentReport, ExperimentWorkflowInput } from '../core/gepa/experiment-types';

export { experimentProgressQuery };

const DEFAULT_ITERATIONS_PER_RUN = 20;

const storage = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: storageRetry });

const invalid = (message: string) => ApplicationFailure.nonRetryable(message, 'InvalidExperimentRequest');

/** First run: validate, prepare, and build the initial context and state. */
async function start(input: ExperimentWorkflowInput): Promise<ContinuedExperiment> {
  const parsed = ExperimentRequestSchema.safeParse(input.request);
  if (!parsed.success) throw invalid(`invalid experiment request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  const request = parsed.data;
  const { workflowId } = workflowInfo();
  const experimentId = request.experimentId ?? experimentIdFromWorkflowId(workflowId);
  const startedAt = new Date().toISOString();
  let prepared;
  try {
    prepared = await storage.prepareExperiment({ experimentId, workflowId, request, at: startedAt });
  } catch (e) {
    // Fail with the reason itself (bad dataset, unknown parent…), not "activity task failed".
    throw ApplicationFailure.create({ message: `experiment ${experimentId} could not start: ${failureMessage(e)}`, type: 'ExperimentNotStarted', nonRetryable: true });
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
    // The state keeps the last LOG_TAIL_LIMIT log entries; each run stores its own before moving on.
    iterationsPerRun: Math.max(1, Math.min(input.iterationsPerRun ?? DEFAULT_ITERATIONS_PER_RUN, LOG_TAIL_LIMIT)),
  };
  return { context, state, loggedThrough: 0, runs: 0 };
}

export async function experimentWorkflow(input: ExperimentWorkflowInput): Promise<ExperimentReport> {
  requireValidInput('experiment', checkExperimentInput(input));
  let phase: ExperimentPhase = 'preparing';
  let holder: SearchHolder | undefined;
  const runs = (input.continued?.runs ?? 0) + 1;
  setHandler(experimentProgressQuery, () => progress(holder, phase, runs));

  const run = input.continued ?? (await start(input));
  holder = { context: run.context, state: run.state };
  const { context } = run;
  let loggedThrough = run.loggedThrough;

  /** Stores the log entries of iterations finished since the last flush, and a state checkpoint. */
  async function flush(): Promise<string | undefined> {
    const entries = holder!.state.log.filter((e) => e.iteration >= loggedThrough);
    try {
      await storage.recordExperimentProgress({ experimentId: context.experimentId, entries, state: holder!.state });
      loggedThrough = holder!.state.iteration;
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
      await storage.recordExperimentResult({ report: r });
    } catch (e) {
      const error = `recording the result failed: ${failureMessage(e)}`;
      return { ...r, error: r.error ? `${r.error}; ${error}` : error };
    }
    return r;
  }

  const notSubmitted = (why: string): SubmissionOutcome => (context.submit ? { status: 'skipped', reason: why } : { status: 'not_requested', reason: 'submit was not requested' });

  phase = 'search';
  let searched;
  try {
    searched = await withDeadline(context.deadlineMs, () => runSearch(holder!));
  } catch (e) {
    if (isCancellation(e)) throw e; // the experiment itself was cancelled: end as cancelled
    await flush();
    const failed = failedResult(context.experimentId, holder.state, { stopReason: 'error', error: failureMessage(e) });
    return finish(report(failed, notSubmitted('the experiment failed: nothing was submitted')));
  }
  if (searched.timedOut) {
    await flush();
    const limit = context.options.timeLimitMs;
    const failed = failedResult(context.experimentId, holder.state, { stopReason: 'time_limit', error: `the search did not finish within its time limit of ${limit} ms` });
    return finish(report(failed, notSubmitted('the search exceeded its time limit: nothing was submitted')));
  }
  const flushError = await flush();
  if (searched.value.kind === 'continue') {
    if (flushError) {
      const failed = failedResult(context.experimentId, holder.state, { stopReason: 'error', error: flushError });
      return finish(report(failed, notSubmitted('the experiment failed: nothing was submitted')));
    }
    return continueAsNew<typeof experimentWorkflow>({ continued: { context, state: holder.state, loggedThrough, runs } });
  }

  // Search ended normally: from here on a failure returns the partial result with its error.
  const { stopReason } = searched.value;
  phase = 'holdout';
  const holdout = await runHoldout(context, holder.state);
  holder.state = holdout.state;
  const result = completedResult(holder.state, { stopReason, promotion: holdout.promotion });
  phase = 'submission';
  const submitted = holdout.error ? { submission: notSubmitted(`not submitted: ${holdout.promotion.reason}`) } : await submitWinner(context, holder.state, holdout);
  if (submitted.submission.revisionId) result.submittedRevisionId = submitted.submission.revisionId;
  const errors = [flushError, holdout.error, submitted.error].filter((e): e is string => e !== undefined);
  if (errors.length > 0) result.error = errors.join('; ');
  return finish(report(result, submitted.submission));
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
  };
}
