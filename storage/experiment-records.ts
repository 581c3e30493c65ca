/**
 * The experiment record in S3 (one prefix per experiment):
 *
 *   experiments/{id}/experiment.json            request, dataset reference (+ sha256), resolved parent
 *   experiments/{id}/records/e-….json           one evaluation batch: case ids, bounded+redacted results
 *   experiments/{id}/records/r-i{n}.json        the reflector's proposal of iteration n
 *   experiments/{id}/records/log-i{n}.json      iteration n's log entry (accept/reject and why)
 *   experiments/{id}/state.json                 latest search-state checkpoint (derived, overwritten)
 *   experiments/{id}/result.json                the final report
 *
 * Keys are deterministic and writes are create-only (the same content again is fine), so
 * every activity that writes them is idempotent under Temporal retries. The writers are the
 * GEPA activities (activities/gepa/records.ts, prepare.ts); the readers are the client
 * library, the console and the reflector.
 */
import { z } from 'zod';
import { EvaluationSchema, EvaluatorDescriptionSchema, IterationLogEntrySchema, type GepaSearchState, type IterationLogEntry } from '../core';
import { recordIds } from '../core/gepa/ids';
import type { ExperimentReport } from '../core/gepa/experiment-types';
import { DATASET_SPLITS } from '../core/gepa/splits';
import { mapLimit } from '../core/concurrency';
import { ModelAnswerRecordSchema } from '../core/llm/repairs';
import { experimentKey, experimentPrefix, experimentRecordKey, experimentRecordsPrefix } from './keys';
import type { ObjectStore } from './object-store';
import { putOnce } from './put-once';
import type { SkillStore } from './skill-store';

export const experimentResultKey = (experimentId: string) => `${experimentPrefix(experimentId)}result.json`;
export const experimentStateKey = (experimentId: string) => `${experimentPrefix(experimentId)}state.json`;

export const EvaluationRecordSchema = z.object({
  experimentId: z.string(),
  recordId: z.string(),
  phase: z.string(),
  iteration: z.number().int().optional(),
  split: z.enum(DATASET_SPLITS),
  candidateId: z.string(),
  seed: z.number().int(),
  caseIds: z.array(z.string()),
  evaluations: z.array(EvaluationSchema),
  summary: z.object({ count: z.number().int(), total: z.number(), mean: z.number(), objectives: z.record(z.string(), z.number()) }),
  recordedAt: z.string(),
  /** Absent in records of older runs: metric calls charged, cases answered by the evaluation cache, the versions described. */
  charged: z.number().int().nonnegative().optional(),
  cacheHits: z.array(z.string()).optional(),
  evaluator: EvaluatorDescriptionSchema.optional(),
});
export type EvaluationRecord = z.infer<typeof EvaluationRecordSchema>;

export const ExperimentRecordSchema = z.looseObject({
  experimentId: z.string(),
  workflowId: z.string(),
  algorithm: z.literal('gepa'),
  startedAt: z.string(),
  dataset: z.object({ id: z.string(), version: z.string(), sha256: z.string(), cases: z.object({ feedback: z.number(), validation: z.number(), holdout: z.number() }) }),
  parentRevisionId: z.string().optional(),
});
export type ExperimentRecord = z.infer<typeof ExperimentRecordSchema>;

const ReportSchema = z.looseObject({ experimentId: z.string(), status: z.string() });

/** The reflector's proposal of one iteration, as stored (records/r-i{n}.json). */
export const ReflectionRecordSchema = z.looseObject({
  iteration: z.number().int(),
  component: z.string(),
  evaluationRecordId: z.string(),
  /** The parent's fingerprint: a resumed experiment reuses the answer for the same parent and component (absent in older records). */
  parentFingerprint: z.string().optional(),
  answer: z.unknown(),
  screening: z.unknown(),
  /** How the reflector's answer was obtained (response format, repairs, tokens); absent in records written before it was kept. */
  modelAnswer: ModelAnswerRecordSchema.optional(),
});
export type ReflectionRecord = z.infer<typeof ReflectionRecordSchema>;

/** Create-only; the same value already stored is success, a different one a non-retryable conflict. */
export async function putRecord(objects: ObjectStore, key: string, value: object): Promise<void> {
  await putOnce(objects, key, JSON.parse(JSON.stringify(value)) as object, {
    schema: z.looseObject({}),
    conflict: () => `${key} already exists with different content (experiment records are write-once)`,
  });
}

/** Read side, for the client, the console and the reflector. */
export function experimentReader(store: SkillStore) {
  const objects = store.objects;
  return {
    async experiment(experimentId: string): Promise<ExperimentRecord | undefined> {
      return (await objects.getJson(experimentKey(experimentId), ExperimentRecordSchema))?.value;
    },
    async result(experimentId: string): Promise<ExperimentReport | undefined> {
      return (await objects.getJson(experimentResultKey(experimentId), ReportSchema))?.value as ExperimentReport | undefined;
    },
    /** The latest search-state checkpoint (trusted: our own derived object). */
    async checkpoint(experimentId: string): Promise<GepaSearchState | undefined> {
      return (await objects.getJson(experimentStateKey(experimentId), z.looseObject({ experimentId: z.string() })))?.value as GepaSearchState | undefined;
    },
    /** The resumes recorded so far (records/resume-s{n}.json keys). */
    async resumes(experimentId: string): Promise<string[]> {
      return objects.list(`${experimentRecordsPrefix(experimentId)}resume-`);
    },
    async reflection(experimentId: string, iteration: number): Promise<ReflectionRecord | undefined> {
      return (await objects.getJson(experimentRecordKey(experimentId, recordIds.reflection(iteration)), ReflectionRecordSchema))?.value;
    },
    async evaluation(experimentId: string, recordId: string): Promise<EvaluationRecord | undefined> {
      return (await objects.getJson(experimentRecordKey(experimentId, recordId), EvaluationRecordSchema))?.value;
    },
    /** Every stored evaluation batch, in record-id order. */
    async evaluations(experimentId: string): Promise<EvaluationRecord[]> {
      const prefix = experimentRecordsPrefix(experimentId);
      const keys = (await objects.list(`${prefix}e-`)).sort();
      const got = await mapLimit(keys, 8, (key) => objects.getJson(key, EvaluationRecordSchema));
      return got.flatMap((g) => (g ? [g.value] : []));
    },
    /** The full iteration log, oldest first. */
    async iterationLog(experimentId: string): Promise<IterationLogEntry[]> {
      const keys = (await objects.list(`${experimentRecordsPrefix(experimentId)}log-`)).sort();
      const got = await mapLimit(keys, 8, (key) => objects.getJson(key, IterationLogEntrySchema));
      return got.flatMap((g) => (g ? [g.value] : [])).sort((a, b) => a.iteration - b.iteration);
    },
    /** The reflector's proposals, by iteration. */
    async reflections(experimentId: string): Promise<ReflectionRecord[]> {
      const keys = await objects.list(`${experimentRecordsPrefix(experimentId)}r-`);
      const got = await mapLimit(keys, 8, (key) => objects.getJson(key, ReflectionRecordSchema));
      return got.flatMap((g) => (g ? [g.value] : [])).sort((a, b) => a.iteration - b.iteration);
    },
  };
}

export type ExperimentReader = ReturnType<typeof experimentReader>;
