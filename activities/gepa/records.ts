/**
 * The GEPA activities that write an experiment's records: evaluation batches, iteration log
 * entries, the search-state checkpoint and the final report (the layout, the record schemas
 * and the reader are in storage/experiment-records.ts). Keys are deterministic and writes
 * create-only, so every activity here is idempotent under Temporal retries.
 */
import { meanScore, type DatasetRef, type Evaluation, type EvaluatorDescription, type GepaSearchState, type IterationLogEntry } from '../../core';
import { experimentRecordKey, mapLimit, type SkillStore } from '../../storage';
import { experimentResultKey, experimentStateKey, putRecord, type EvaluationRecord } from '../../storage/experiment-records';
import { withStoreErrors } from '../errors';
import type { DatasetCache } from './dataset-cache';
import { evaluationCache } from './evaluation-cache';
import { storedEvaluation } from './stored-evaluation';
import { recordIds } from '../../core/gepa/ids';
import { objectiveMeans } from '../../core/gepa/objectives';
import type { ExperimentReport } from '../../core/gepa/experiment-types';
import type { DatasetSplit } from '../../core/gepa/splits';

// Evaluations are stored redacted and bounded (stored-evaluation.ts); re-exported for the record's readers.
export { STORED_TEXT_MAX_BYTES, storedEvaluation, storedText } from './stored-evaluation';

export interface RecordEvaluationInput {
  experimentId: string;
  recordId: string;
  phase: string;
  iteration?: number;
  split: DatasetSplit;
  candidateId: string;
  seed: number;
  caseIds: string[];
  /** Already checked against the case ids (alignEvaluations), in case order. */
  evaluations: Evaluation[];
  at: string;
  /** Batches of runs on the version with the cache: the accounting to record. */
  charged?: number;
  cacheHits?: string[];
  evaluator?: EvaluatorDescription;
  /** Store the evaluations the evaluator ran (not the hits) in the evaluation cache. */
  cache?: { taskQueue: string; dataset: DatasetRef };
}

/** Iteration log entries not yet stored, and the search state to checkpoint. */
export interface ProgressInput {
  experimentId: string;
  entries: IterationLogEntry[];
  state: GepaSearchState;
}

export function recordActivities({ store, datasets }: { store: SkillStore; datasets: DatasetCache }) {
  const objects = store.objects;
  const cache = evaluationCache(objects);

  /** The evaluations the evaluator ran in this batch, under the versions it described, into the cache. */
  async function cacheEvaluations(input: RecordEvaluationInput): Promise<void> {
    if (!input.cache || !input.evaluator) return;
    const identity = { taskQueue: input.cache.taskQueue, ...input.evaluator };
    const hits = new Set(input.cacheHits ?? []);
    // An evaluation that reports other versions than described ran on another evaluator (a rolling deploy): not cached.
    const fresh = input.evaluations.filter(
      (e) =>
        !hits.has(e.caseId) &&
        (e.evaluatorVersion === undefined || e.evaluatorVersion === identity.evaluatorVersion) &&
        (e.modelVersion === undefined || e.modelVersion === identity.modelVersion),
    );
    if (fresh.length === 0) return;
    const cases = await datasets.cases(
      input.cache.dataset,
      fresh.map((e) => e.caseId),
    );
    await cache.store(identity, input.candidateId, input.seed, cases, fresh);
  }

  async function writeProgress(input: ProgressInput): Promise<void> {
    await mapLimit(input.entries, 8, (entry) => putRecord(objects, experimentRecordKey(input.experimentId, recordIds.iterationLog(entry.iteration)), entry));
    await objects.put(experimentStateKey(input.experimentId), input.state);
  }

  return {
    async recordExperimentEvaluation(input: RecordEvaluationInput): Promise<void> {
      const scores = input.evaluations.map((e) => e.score);
      const record: EvaluationRecord = {
        experimentId: input.experimentId,
        recordId: input.recordId,
        phase: input.phase,
        ...(input.iteration !== undefined ? { iteration: input.iteration } : {}),
        split: input.split,
        candidateId: input.candidateId,
        seed: input.seed,
        caseIds: input.caseIds,
        evaluations: input.evaluations.map(storedEvaluation),
        summary: { count: scores.length, total: scores.reduce((a, b) => a + b, 0), mean: meanScore(scores), objectives: objectiveMeans(input.evaluations) },
        recordedAt: input.at,
        ...(input.charged !== undefined ? { charged: input.charged } : {}),
        ...(input.cacheHits !== undefined ? { cacheHits: input.cacheHits } : {}),
        ...(input.evaluator !== undefined ? { evaluator: input.evaluator } : {}),
      };
      // Both writes at once: the batch's last step is on the experiment's critical path (a retry writes both again).
      await withStoreErrors(() => Promise.all([putRecord(objects, experimentRecordKey(input.experimentId, input.recordId), record), cacheEvaluations(input)]));
    },

    /** Iteration log entries not yet stored, and a checkpoint of the search state. */
    async recordExperimentProgress(input: ProgressInput): Promise<void> {
      await withStoreErrors(() => writeProgress(input));
    },

    /**
     * The final report. Experiments on searchVersion 2 pass their segment (0, or the
     * resume number): each segment's report is kept create-only in records/result-s{n}.json
     * and result.json holds the latest (a resumed experiment replaces it). Older runs
     * write result.json once. With `progress`, the last checkpoint and log entries are
     * written in the same step (one activity at the experiment's end instead of two).
     */
    async recordExperimentResult({ report, segment, progress }: { report: ExperimentReport; segment?: number; progress?: ProgressInput }): Promise<void> {
      await withStoreErrors(async () => {
        const checkpoint = progress ? writeProgress(progress) : undefined;
        checkpoint?.catch(() => undefined); // awaited below
        if (segment === undefined) await putRecord(objects, experimentResultKey(report.experimentId), report);
        else {
          await putRecord(objects, experimentRecordKey(report.experimentId, recordIds.result(segment)), report);
          await objects.put(experimentResultKey(report.experimentId), report);
        }
        await checkpoint;
      });
    },
  };
}
