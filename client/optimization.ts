/**
 * Offline optimization from the platform side: store frozen datasets, start GEPA
 * experiments, read their progress and results.
 *
 * Datasets are stored once, frozen (`datasets/{id}/{version}.json`, create-only). A
 * request with an inline dataset is turned into a reference to that stored dataset
 * before the workflow starts, so no case ever enters workflow history; experiment.json
 * pins the dataset by id, version and SHA-256.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import {
  datasetProblems,
  DatasetSchema,
  ExperimentRequestSchema,
  initSearchState,
  redactDataset,
  scopeKey as scopeKeyOf,
  submissionParentProblem,
  type Dataset,
  type DatasetRef,
  type DatasetSplit,
  type EvolutionConfig,
  type ExperimentRequest,
  type GepaSearchState,
  type IterationLogEntry,
  type PreflightShape,
  planProposals,
  preflightProblem,
} from '../core';
import { experimentReader, type EvaluationRecord, type ExperimentRecord, type ReflectionRecord } from '../storage/experiment-records';
import { isNonRetryableStorageError, PreconditionConflictError, type SkillStore } from '../storage';
import { EXPERIMENT_WORKFLOW, experimentProgressQuery, type ExperimentProgress, type ExperimentReport, type ExperimentWorkflow } from '../core/workflow-api';
import { failureMessage } from '../core/failure-message';
import { experimentWorkflowId } from '../core/workflow-ids';
import { InputError, NotFoundError, parseInput, StateError } from '../core/errors';
import { searchAttributes } from '../core/search-attributes';

export interface OptimizationDeps {
  client: Client;
  store: SkillStore;
  config: EvolutionConfig;
}

export interface StartedExperiment {
  experimentId: string;
  workflowId: string;
  dataset: DatasetRef;
}

export type ExperimentStatus = 'running' | 'completed' | 'failed' | 'cancelled' | 'terminated' | 'timed_out';

export interface ExperimentView {
  experimentId: string;
  workflowId: string;
  /** The experiment's status: a completed workflow may still report a failed experiment (time limit, error). */
  status: ExperimentStatus;
  progress?: ExperimentProgress;
  report?: ExperimentReport;
  error?: string;
}

/** Stores a dataset as frozen; the same content again is fine, different content under its id and version is not. */
export async function putDataset(store: SkillStore, value: unknown): Promise<{ dataset: Dataset; problems: string[] }> {
  // Credentials in cases never reach storage (nor, through the cases, the evaluator's answers in history).
  const dataset = redactDataset(parseInput(DatasetSchema, value, 'dataset'));
  const problems = datasetProblems(dataset, false).map((p) => `${p.path.join('.')}: ${p.message}`);
  if (problems.length > 0) throw new InputError(`invalid dataset ${dataset.id} version ${dataset.version}:\n${problems.map((p) => `  ✖ ${p}`).join('\n')}`);
  try {
    return { dataset: await store.putDataset(dataset), problems: datasetProblems(dataset, true).map((p) => p.message) };
  } catch (e) {
    if (e instanceof PreconditionConflictError || isNonRetryableStorageError(e)) throw new StateError((e as Error).message);
    throw e;
  }
}

export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${what} ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${what} ${path} is not JSON: ${(e as Error).message}`);
  }
}

/** `evolution dataset put FILE`. `submitProblems` says why the dataset cannot back a submission (fewer than 10 cases in a split). */
export async function putDatasetFile(store: SkillStore, path: string): Promise<{ dataset: DatasetRef; cases: Record<DatasetSplit, number>; submitProblems: string[] }> {
  const { dataset, problems } = await putDataset(store, readJsonFile(path, 'dataset file'));
  return {
    dataset: { id: dataset.id, version: dataset.version },
    cases: { feedback: dataset.feedback.length, validation: dataset.validation.length, holdout: dataset.holdout.length },
    submitProblems: problems,
  };
}

/**
 * Checks a request the way the workflow will (schema, the stored dataset, the budget) and
 * returns it with an inline dataset replaced by its stored reference.
 */
export async function resolveRequest(store: SkillStore, request: unknown): Promise<{ request: ExperimentRequest; dataset: Dataset }> {
  const req = parseInput(ExperimentRequestSchema, request, 'experiment request');
  let dataset: Dataset;
  if (req.dataset) {
    dataset = (await putDataset(store, req.dataset)).dataset;
  } else {
    const stored = await store.getDataset(req.datasetRef!.id, req.datasetRef!.version);
    if (!stored) throw new NotFoundError(`dataset ${req.datasetRef!.id} version ${req.datasetRef!.version} does not exist (store it with \`evolution dataset put FILE\`)`);
    dataset = stored;
  }
  const problems = datasetProblems(dataset, req.submit);
  if (problems.length > 0) {
    throw new InputError(
      `invalid experiment request: dataset ${dataset.id} version ${dataset.version}:\n${problems.map((p) => `  ✖ ${p.message}\n    → at ${p.path.join('.')}`).join('\n')}`,
    );
  }
  try {
    initSearchState({ experimentId: 'check', options: req.options, dataset });
  } catch (e) {
    throw new InputError(`invalid experiment request: ${(e as Error).message}`);
  }
  const problem = preflightProblem(preflightShapeOf(req, dataset));
  if (problem) throw new InputError(`invalid experiment request: ${problem}`);
  const { dataset: _inline, ...rest } = req;
  return { request: { ...rest, datasetRef: { id: dataset.id, version: dataset.version } }, dataset };
}

/** What the pre-flight budget check needs from a request and its dataset (and a checkpoint, resuming). */
export function preflightShapeOf(request: ExperimentRequest, dataset: Pick<Dataset, DatasetSplit>, state?: GepaSearchState): PreflightShape {
  return {
    maxMetricCalls: request.options.maxMetricCalls,
    maxIterations: request.options.maxIterations,
    feedbackSize: dataset.feedback.length,
    validationSize: dataset.validation.length,
    holdoutSize: dataset.holdout.length,
    reflectionBatchSize: request.options.reflectionBatchSize,
    selection: request.options.selection,
    ...(state ? { used: state.budget.used, completedIterations: state.iteration, seedEvaluated: state.candidates.length > 0 } : {}),
  };
}

/**
 * A submitting experiment whose skill is unmanaged or whose parent is not the active
 * revision is refused before it spends a metric call (the experiment's prepare step
 * checks again, for scheduled runs and other clients).
 */
export async function refuseUnsubmittable(store: SkillStore, request: ExperimentRequest): Promise<void> {
  if (!request.submit || !request.skillId || !request.parentRevisionId || request.parentRevisionId === 'active') return;
  const scopeKey = scopeKeyOf(request.scope);
  const active = await store.readActive(scopeKey, request.skillId);
  const problem = submissionParentProblem({ skillId: request.skillId, scopeKey, parentRevisionId: request.parentRevisionId, active: active?.pointer });
  if (problem) throw new StateError(`experiment refused: ${problem}`);
}

/**
 * Starts one experiment and returns as soon as Temporal accepted it. The experiment id
 * (request.experimentId, else a new one) names the workflow `experiment/{id}`; an id is
 * used once.
 */
export async function startExperiment(deps: OptimizationDeps, request: unknown, opts: { iterationsPerRun?: number } = {}): Promise<StartedExperiment> {
  const resolved = await resolveRequest(deps.store, request);
  await refuseUnsubmittable(deps.store, resolved.request);
  const experimentId = resolved.request.experimentId ?? `exp-${randomUUID()}`;
  const workflowId = experimentWorkflowId(experimentId);
  try {
    await deps.client.workflow.start<ExperimentWorkflow>(EXPERIMENT_WORKFLOW, {
      workflowId,
      taskQueue: deps.config.temporal.taskQueue,
      args: [{ request: { ...resolved.request, experimentId }, iterationsPerRun: opts.iterationsPerRun }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      searchAttributes: searchAttributes({ kind: 'experiment', skillId: resolved.request.skillId }),
    });
  } catch (e) {
    if (e instanceof WorkflowExecutionAlreadyStartedError) throw new StateError(`experiment ${experimentId} already exists (an experiment id is used once)`);
    throw e;
  }
  return { experimentId, workflowId, dataset: resolved.request.datasetRef! };
}

/** Waits for the report (following continue-as-new). A workflow that failed (bad input) becomes a StateError with the reason. */
export async function waitForExperiment(client: Client, experimentId: string): Promise<ExperimentReport> {
  try {
    return (await client.workflow.getHandle<ExperimentWorkflow>(experimentWorkflowId(experimentId)).result()) as ExperimentReport;
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) throw new NotFoundError(`no experiment ${experimentId}`);
    if (e instanceof WorkflowFailedError) throw new StateError(`experiment ${experimentId} failed: ${failureMessage(e)}`);
    throw e;
  }
}

/** Start, then wait: the experiment's report. */
export async function runExperiment(deps: OptimizationDeps, request: unknown, opts: { iterationsPerRun?: number } = {}): Promise<ExperimentReport> {
  const started = await startExperiment(deps, request, opts);
  return waitForExperiment(deps.client, started.experimentId);
}

const CLOSED: Record<string, ExperimentStatus> = { CANCELLED: 'cancelled', TERMINATED: 'terminated', TIMED_OUT: 'timed_out', FAILED: 'failed' };

/** Status, progress while running, the report when done (from Temporal, else from result.json in S3). */
export async function getExperiment(deps: Pick<OptimizationDeps, 'client' | 'store'>, experimentId: string): Promise<ExperimentView> {
  const workflowId = experimentWorkflowId(experimentId);
  const handle = deps.client.workflow.getHandle<ExperimentWorkflow>(workflowId);
  let status: string;
  try {
    status = (await handle.describe()).status.name;
  } catch (e) {
    if (!(e instanceof WorkflowNotFoundError)) throw e;
    const report = await experimentReader(deps.store).result(experimentId);
    if (!report) throw new NotFoundError(`no experiment ${experimentId}`);
    return { experimentId, workflowId, status: report.status, report };
  }
  if (status === 'RUNNING' || status === 'CONTINUED_AS_NEW') {
    const progress = await handle.query(experimentProgressQuery).catch(() => undefined);
    return { experimentId, workflowId, status: 'running', ...(progress ? { progress } : {}) };
  }
  if (status === 'COMPLETED') {
    const report = (await handle.result()) as ExperimentReport;
    return { experimentId, workflowId, status: report.status, report, ...(report.error ? { error: report.error } : {}) };
  }
  const error = await handle.result().then(
    () => undefined,
    (e: unknown) => failureMessage(e),
  );
  return { experimentId, workflowId, status: CLOSED[status] ?? 'failed', ...(error ? { error } : {}) };
}

/** The experiment record, its full iteration log and its evaluation batches (S3). */
export async function readExperimentRecords(
  store: SkillStore,
  experimentId: string,
): Promise<{ experiment?: ExperimentRecord; log: IterationLogEntry[]; evaluations: EvaluationRecord[]; reflections: ReflectionRecord[] }> {
  const reader = experimentReader(store);
  const [experiment, log, evaluations, reflections] = await Promise.all([
    reader.experiment(experimentId),
    reader.iterationLog(experimentId),
    reader.evaluations(experimentId),
    reader.reflections(experimentId),
  ]);
  return { experiment, log, evaluations, reflections };
}

export interface ResumeOptions {
  /** The experiment's new maxMetricCalls (a total, spent calls included). */
  budget?: number;
  /** The experiment's new maxIterations (a total, iterations done included). */
  iterations?: number;
}

export interface ResumedExperiment extends StartedExperiment {
  /** 1 for the first resume of the experiment. */
  segment: number;
  fromIteration: number;
  metricCallsUsed: number;
  proposalsPossible: number;
}

const STOPPED = new Set(['COMPLETED', 'FAILED', 'CANCELED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT']);

/**
 * `evolution optimize --resume ID [--budget N] [--iterations N]`: continues a finished,
 * failed, cancelled or time-limited experiment from its latest checkpoint (pool, scores,
 * PRNG state, lineage, spend). Batches and reflections it had finished are reused from
 * its records, so nothing finished runs again, and with the same seed it ends where an
 * uninterrupted run would. Refused while it runs, without a checkpoint, or when the
 * budget or iteration limit leaves nothing to do (the pre-flight check, with numbers).
 */
export async function resumeExperiment(deps: OptimizationDeps, experimentId: string, opts: ResumeOptions = {}): Promise<ResumedExperiment> {
  if (opts.budget !== undefined && (!Number.isInteger(opts.budget) || opts.budget < 1)) throw new InputError(`--budget must be a positive integer, got ${opts.budget}`);
  if (opts.iterations !== undefined && (!Number.isInteger(opts.iterations) || opts.iterations < 0))
    throw new InputError(`--iterations must be a non-negative integer, got ${opts.iterations}`);
  const workflowId = experimentWorkflowId(experimentId);
  try {
    const status = (await deps.client.workflow.getHandle(workflowId).describe()).status.name;
    if (!STOPPED.has(status))
      throw new StateError(`experiment ${experimentId} is ${status.toLowerCase()}: cancel it first (\`evolution experiment cancel ${experimentId}\`), then resume it`);
  } catch (e) {
    if (!(e instanceof WorkflowNotFoundError)) throw e;
  }
  const reader = experimentReader(deps.store);
  const [stored, state, previous, resumes] = await Promise.all([
    reader.experiment(experimentId),
    reader.checkpoint(experimentId),
    reader.result(experimentId),
    reader.resumes(experimentId),
  ]);
  if (!stored) throw new NotFoundError(`no experiment ${experimentId}`);
  if (!state) throw new StateError(`experiment ${experimentId} has no checkpoint: it never started searching, so there is nothing to resume; start it again`);
  const request = parseInput(ExperimentRequestSchema, (stored as { request?: unknown }).request, `experiment ${experimentId}'s stored request`);
  const options = {
    ...request.options,
    ...(opts.budget !== undefined ? { maxMetricCalls: opts.budget } : {}),
    ...(opts.iterations !== undefined ? { maxIterations: opts.iterations } : {}),
  };
  const sizes = { feedback: Array(stored.dataset.cases.feedback), validation: Array(stored.dataset.cases.validation), holdout: Array(stored.dataset.cases.holdout) };
  const shape = preflightShapeOf({ ...request, options }, sizes, state);
  const problem = preflightProblem(shape);
  if (problem) throw new InputError(`experiment ${experimentId} cannot resume: ${problem}`);
  const plan = planProposals(shape);
  if (plan.proposalsPossible === 0 && state.candidates.length > 0) {
    const why =
      plan.iterationsLeft === 0
        ? `its ${options.maxIterations} iterations are done (raise them with --iterations N)`
        : `its budget is spent (raise it with --budget N; ${state.budget.used} of ${options.maxMetricCalls} calls used)`;
    throw new InputError(`experiment ${experimentId} has nothing left to run: ${why}`);
  }
  const segment = Math.max(previous?.resumes ?? 0, resumes.length) + 1;
  await deps.client.workflow.start<ExperimentWorkflow>(EXPERIMENT_WORKFLOW, {
    workflowId,
    taskQueue: deps.config.temporal.taskQueue,
    args: [
      {
        resume: {
          experimentId,
          segment,
          ...(opts.budget !== undefined ? { maxMetricCalls: opts.budget } : {}),
          ...(opts.iterations !== undefined ? { maxIterations: opts.iterations } : {}),
        },
      },
    ],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    searchAttributes: searchAttributes({ kind: 'experiment', skillId: request.skillId }),
  });
  return {
    experimentId,
    workflowId,
    dataset: request.datasetRef!,
    segment,
    fromIteration: state.iteration,
    metricCallsUsed: state.budget.used,
    proposalsPossible: plan.proposalsPossible,
  };
}

/**
 * `evolution experiment cancel ID`: asks the experiment to stop. In-flight evaluations
 * and the reflector are cancelled; the experiment writes its checkpoint (the last
 * iteration boundary), its iteration log and a result with status `cancelled`, and can
 * be resumed. Waits for that report (an experiment started on code before clean
 * cancellation simply ends cancelled, with no result written).
 */
export async function cancelExperiment(client: Client, experimentId: string, opts: { wait?: boolean } = {}): Promise<ExperimentReport | undefined> {
  const handle = client.workflow.getHandle<ExperimentWorkflow>(experimentWorkflowId(experimentId));
  try {
    const status = (await handle.describe()).status.name;
    if (STOPPED.has(status)) throw new StateError(`experiment ${experimentId} is not running (${status.toLowerCase()})`);
    await handle.cancel();
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) throw new NotFoundError(`no experiment ${experimentId}`);
    throw e;
  }
  if (opts.wait === false) return undefined;
  try {
    return (await handle.result()) as ExperimentReport;
  } catch (e) {
    if (e instanceof WorkflowFailedError) return undefined; // older steps: cancelled without a report
    throw e;
  }
}
