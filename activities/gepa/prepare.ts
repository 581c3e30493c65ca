import {
  datasetProblems,
  isLivePointer,
  scopeKey as scopeKeyOf,
  submissionParentProblem,
  type Case,
  type Dataset,
  type DatasetRef,
  type EvolutionConfig,
  type ExperimentRequest,
  ExperimentRequestSchema,
  type GepaSearchState,
} from '../../core';
import { withStoreErrors } from '../errors';
import { canonicalJson } from '../../storage/canonical-json';
import { sha256Hex } from '../../storage/sha256';
import { z } from 'zod';
import { experimentKey, experimentRecordKey, type SkillStore } from '../../storage';
import type { DatasetIndex } from '../../core/gepa/experiment-types';
import type { DatasetCache } from './dataset-cache';
import { invalidRequest } from './failures';
import { experimentReader, experimentStateKey, putRecord } from '../../storage/experiment-records';
import { ACTIVE_PARENT } from '../../core/gepa/submission-parent';
import { recordIds } from '../../core/gepa/ids';

export interface PrepareInput {
  experimentId: string;
  workflowId: string;
  /** Already validated by ExperimentRequestSchema in the workflow. */
  request: ExperimentRequest;
  /** Workflow time of the start. */
  at: string;
}

export interface PreparedExperiment {
  scopeKey: string;
  dataset: DatasetIndex;
  parentRevisionId?: string;
  /** The configured evaluator task queue, for requests that name none. */
  defaultEvaluatorTaskQueue: string;
  /**
   * The search version this worker runs: 2 = pre-flight check, evaluation cache, record
   * reuse (resume), spend, merge, frontiers, selection, clean cancellation. Absent in the
   * answers recorded by older workers: those experiments keep their original steps
   * (docs/versioning.md, "Changes keyed on an activity's answer").
   */
  searchVersion?: typeof SEARCH_VERSION;
}

export const SEARCH_VERSION = 2;

export interface ResumeInput {
  experimentId: string;
  workflowId: string;
  /** 1 for the first resume, 2 for the next… (the client counts them). */
  segment: number;
  /** Workflow time of the resume. */
  at: string;
  maxMetricCalls?: number;
  maxIterations?: number;
}

export interface ResumedExperiment extends PreparedExperiment {
  searchVersion: typeof SEARCH_VERSION;
  /** The experiment's request as stored (dataset by reference), with the resume's budget and iterations applied. */
  request: ExperimentRequest;
  startedAt: string;
  /** The latest checkpoint: the search state at an iteration boundary. */
  state: GepaSearchState;
}

function indexOf(dataset: Dataset): DatasetIndex {
  return {
    id: dataset.id,
    version: dataset.version,
    sha256: sha256Hex(canonicalJson(dataset)),
    feedbackIds: dataset.feedback.map((c) => c.id),
    validationIds: dataset.validation.map((c) => c.id),
    holdout: dataset.holdout.map((c) => ({ id: c.id, critical: c.critical })),
  };
}

/** The checkpoint is our own derived object: checked for its shape, not field by field. */
const StoredStateSchema = z.looseObject({
  version: z.literal(1),
  experimentId: z.string(),
  iteration: z.number().int().nonnegative(),
  budget: z.looseObject({ max: z.number(), used: z.number() }),
  candidates: z.array(z.looseObject({ id: z.string() })),
});

export function prepareActivities({ config, store, datasets }: { config: EvolutionConfig; store: SkillStore; datasets: DatasetCache }) {
  const reader = experimentReader(store);
  /** An inline dataset is stored as a frozen dataset (create-only), so records refer to it by id and version. */
  async function resolveDataset(request: ExperimentRequest): Promise<Dataset> {
    if (request.dataset) {
      const frozen = await withStoreErrors(() => store.putDataset(request.dataset!));
      datasets.remember(frozen);
      return frozen;
    }
    return datasets.get(request.datasetRef!);
  }

  async function resolveParent(request: ExperimentRequest, scopeKey: string): Promise<string | undefined> {
    if (request.parentRevisionId !== ACTIVE_PARENT) return request.parentRevisionId;
    if (!request.skillId) throw invalidRequest(`parentRevisionId "${ACTIVE_PARENT}" needs skillId`);
    const active = await withStoreErrors(() => store.readActive(scopeKey, request.skillId!));
    if (!isLivePointer(active?.pointer)) throw invalidRequest(`skill ${request.skillId} has no active revision in ${scopeKey} to start from`);
    return active!.pointer.revisionId;
  }

  return {
    /**
     * Loads (or freezes) the dataset and re-checks it, resolves the parent revision, and
     * writes experiment.json once. Bad input fails without retry, naming every problem.
     */
    async prepareExperiment(input: PrepareInput): Promise<PreparedExperiment> {
      const { request } = input;
      let scopeKey: string;
      try {
        scopeKey = scopeKeyOf(request.scope);
      } catch (e) {
        throw invalidRequest(`invalid scope: ${(e as Error).message}`);
      }
      const dataset = await resolveDataset(request);
      const problems = datasetProblems(dataset, request.submit);
      if (problems.length > 0) {
        throw invalidRequest(`dataset ${dataset.id} version ${dataset.version}: ${problems.map((p) => `${p.path.join('.')}: ${p.message}`).join('; ')}`);
      }
      const parentRevisionId = await resolveParent(request, scopeKey);
      if (request.submit) {
        // Fail before any metric call: a submission from a stale or unmanaged parent could never land.
        const active = await withStoreErrors(() => store.readActive(scopeKey, request.skillId!));
        const problem = submissionParentProblem({ skillId: request.skillId!, scopeKey, parentRevisionId: parentRevisionId!, active: active?.pointer });
        if (problem) throw invalidRequest(problem);
      }
      const index = indexOf(dataset);
      const { dataset: _inline, ...rest } = request;
      const record = {
        experimentId: input.experimentId,
        workflowId: input.workflowId,
        algorithm: 'gepa',
        startedAt: input.at,
        request: { ...rest, datasetRef: { id: dataset.id, version: dataset.version } },
        dataset: {
          id: dataset.id,
          version: dataset.version,
          sha256: index.sha256,
          cases: { feedback: dataset.feedback.length, validation: dataset.validation.length, holdout: dataset.holdout.length },
          criticalHoldoutCases: index.holdout.filter((c) => c.critical).map((c) => c.id),
        },
        ...(parentRevisionId !== undefined ? { parentRevisionId } : {}),
      };
      await withStoreErrors(() => putRecord(store.objects, experimentKey(input.experimentId), record));
      return { scopeKey, dataset: index, parentRevisionId, defaultEvaluatorTaskQueue: config.temporal.evaluatorTaskQueue, searchVersion: SEARCH_VERSION };
    },

    /**
     * What a resumed experiment starts from: its stored request and dataset (checked
     * against the pinned SHA-256), its latest checkpoint, with the resume's budget and
     * iteration limit applied; records the resume (records/resume-s{n}.json).
     */
    async prepareResume(input: ResumeInput): Promise<ResumedExperiment> {
      const stored = await withStoreErrors(() => reader.experiment(input.experimentId));
      if (!stored) throw invalidRequest(`experiment ${input.experimentId} has no experiment.json: nothing to resume`);
      const parsed = ExperimentRequestSchema.safeParse((stored as { request?: unknown }).request);
      if (!parsed.success) throw invalidRequest(`experiment ${input.experimentId}: its stored request no longer parses: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      const state = await withStoreErrors(() => store.objects.getJson(experimentStateKey(input.experimentId), StoredStateSchema));
      if (!state)
        throw invalidRequest(`experiment ${input.experimentId} has no checkpoint (state.json): it never started searching, so there is nothing to resume; start it again`);
      const checkpoint = state.value as unknown as GepaSearchState;
      if (checkpoint.experimentId !== input.experimentId) throw invalidRequest(`state.json of experiment ${input.experimentId} belongs to experiment ${checkpoint.experimentId}`);
      const request: ExperimentRequest = {
        ...parsed.data,
        options: {
          ...parsed.data.options,
          ...(input.maxMetricCalls !== undefined ? { maxMetricCalls: input.maxMetricCalls } : {}),
          ...(input.maxIterations !== undefined ? { maxIterations: input.maxIterations } : {}),
        },
      };
      const dataset = await datasets.get(request.datasetRef!);
      const index = indexOf(dataset);
      if (index.sha256 !== stored.dataset.sha256) {
        throw invalidRequest(
          `dataset ${dataset.id} version ${dataset.version} changed since experiment ${input.experimentId} started (sha256 ${index.sha256}, pinned ${stored.dataset.sha256})`,
        );
      }
      const scopeKey = scopeKeyOf(request.scope);
      await withStoreErrors(() =>
        putRecord(store.objects, experimentRecordKey(input.experimentId, recordIds.resume(input.segment)), {
          segment: input.segment,
          workflowId: input.workflowId,
          at: input.at,
          fromIteration: checkpoint.iteration,
          metricCallsUsed: checkpoint.budget.used,
          maxMetricCalls: request.options.maxMetricCalls,
          maxIterations: request.options.maxIterations,
        }),
      );
      return {
        scopeKey,
        dataset: index,
        ...(stored.parentRevisionId !== undefined ? { parentRevisionId: stored.parentRevisionId } : {}),
        defaultEvaluatorTaskQueue: config.temporal.evaluatorTaskQueue,
        searchVersion: SEARCH_VERSION,
        request,
        startedAt: stored.startedAt,
        state: checkpoint,
      };
    },

    /** Cases of one evaluation batch, for the evaluator (only the batch's workflow history holds them). */
    async loadExperimentCases(input: { dataset: DatasetRef; caseIds: string[] }): Promise<Case[]> {
      return datasets.cases(input.dataset, input.caseIds);
    },
  };
}
