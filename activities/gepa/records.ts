/**
 * The GEPA activities that write an experiment's records: evaluation batches, iteration log
 * entries, the search-state checkpoint and the final report (the layout, the record schemas
 * and the reader are in storage/experiment-records.ts). Keys are deterministic and writes
 * create-only, so every activity here is idempotent under Temporal retries.
 */
import { boundText, meanScore, redactSecrets, type Evaluation, type GepaSearchState, type IterationLogEntry } from '../../core';
import { experimentRecordKey, mapLimit, type SkillStore } from '../../storage';
import { experimentResultKey, experimentStateKey, putRecord, type EvaluationRecord } from '../../storage/experiment-records';
import { withStoreErrors } from '../errors';
import { recordIds } from '../../core/gepa/ids';
import { objectiveMeans } from '../../core/gepa/objectives';
import type { ExperimentReport } from '../../core/gepa/experiment-types';
import type { DatasetSplit } from '../../core/gepa/splits';

/** Cap of each stored output/feedback/trace, in UTF-8 bytes (as the reference stores them). */
export const STORED_TEXT_MAX_BYTES = 16 * 1024;

/** Redacted, then bounded head+tail (a loose first cut keeps redaction cheap on huge texts). */
export function storedText(text: string): string {
  return boundText(redactSecrets(boundText(text, 4 * STORED_TEXT_MAX_BYTES)), STORED_TEXT_MAX_BYTES);
}

export function storedEvaluation(e: Evaluation): Evaluation {
  const out: Evaluation = { caseId: e.caseId, score: e.score };
  if (e.output !== undefined) out.output = storedText(e.output);
  if (e.feedback !== undefined) out.feedback = storedText(e.feedback);
  if (e.trace !== undefined) out.trace = storedText(e.trace);
  if (e.objectives !== undefined) out.objectives = e.objectives;
  return out;
}

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
}

export function recordActivities({ store }: { store: SkillStore }) {
  const objects = store.objects;
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
      };
      await withStoreErrors(() => putRecord(objects, experimentRecordKey(input.experimentId, input.recordId), record));
    },

    /** Iteration log entries not yet stored, and a checkpoint of the search state. */
    async recordExperimentProgress(input: { experimentId: string; entries: IterationLogEntry[]; state: GepaSearchState }): Promise<void> {
      await withStoreErrors(async () => {
        await mapLimit(input.entries, 8, (entry) => putRecord(objects, experimentRecordKey(input.experimentId, recordIds.iterationLog(entry.iteration)), entry));
        await objects.put(experimentStateKey(input.experimentId), input.state);
      });
    },

    async recordExperimentResult({ report }: { report: ExperimentReport }): Promise<void> {
      await withStoreErrors(() => putRecord(objects, experimentResultKey(report.experimentId), report));
    },
  };
}
