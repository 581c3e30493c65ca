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
} from '../../core';
import { withStoreErrors } from '../errors';
import { canonicalJson } from '../../storage/canonical-json';
import { sha256Hex } from '../../storage/sha256';
import { experimentKey, type SkillStore } from '../../storage';
import type { DatasetIndex } from '../../core/gepa/experiment-types';
import type { DatasetCache } from './dataset-cache';
import { invalidRequest } from './failures';
import { putRecord } from '../../storage/experiment-records';
import { ACTIVE_PARENT } from '../../core/gepa/submission-parent';

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

export function prepareActivities({ config, store, datasets }: { config: EvolutionConfig; store: SkillStore; datasets: DatasetCache }) {
  /** An inline dataset is stored as a frozen dataset (create-only), so records refer to it by id and version. */
  async function resolveDataset(request: ExperimentRequest): Promise<Dataset> {
    if (request.dataset) return withStoreErrors(() => store.putDataset(request.dataset!));
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
      return { scopeKey, dataset: index, parentRevisionId, defaultEvaluatorTaskQueue: config.temporal.evaluatorTaskQueue };
    },

    /** Cases of one evaluation batch, for the evaluator (only the batch's workflow history holds them). */
    async loadExperimentCases(input: { dataset: DatasetRef; caseIds: string[] }): Promise<Case[]> {
      return datasets.cases(input.dataset, input.caseIds);
    },
  };
}
