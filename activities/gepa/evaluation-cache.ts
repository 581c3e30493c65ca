/**
 * The evaluation cache in S3 (keys: core/gepa/cache-keys.ts, storage/keys.ts).
 *
 *   eval-cache/{evaluatorKey}/{candidateId}/{seed}.json
 *     { evaluator, candidateId, seed, entries: { "{caseId}@{caseVersion}": evaluation } }
 *
 * One object per (evaluator identity, candidate, seed), not one per case: a batch reads
 * one object and writes at most one, whatever its size. At 1,000 metric calls (about 75
 * batches) that is about 75 GETs and at most 75 PUTs, against 1,000 of each for one object
 * per case. Candidates are evaluated under one seed per iteration (paired minibatches) or
 * per experiment (Validation, Holdout), so an object rarely grows beyond one split.
 *
 * Concurrent writers (two experiments evaluating the same candidate under the same seed)
 * merge with conditional writes (create-only, then If-Match), re-reading on conflict. A
 * corrupt object is treated as empty and replaced. Entries are stored as the experiment
 * records store evaluations (redacted, bounded).
 */
import { z } from 'zod';
import { cacheEntryKey, caseVersion, EvaluationSchema, evaluatorKey, type Case, type Evaluation, type EvaluatorIdentity } from '../../core';
import { CorruptObjectError, evaluationCacheKey, retryOnConflict, type ObjectStore } from '../../storage';
import { storedEvaluation } from './stored-evaluation';

const CacheObjectSchema = z.object({
  evaluator: z.object({ taskQueue: z.string(), evaluatorVersion: z.string(), modelVersion: z.string().optional() }),
  candidateId: z.string(),
  seed: z.number().int(),
  entries: z.record(z.string(), EvaluationSchema),
});
type CacheObject = z.infer<typeof CacheObjectSchema>;

export interface CacheLookup {
  /** Cached evaluations of the given cases, by case id. */
  hits: Map<string, Evaluation>;
}

export function evaluationCache(objects: ObjectStore) {
  const keyOf = (identity: EvaluatorIdentity, candidateId: string, seed: number) => evaluationCacheKey(evaluatorKey(identity), candidateId, seed);

  async function read(key: string): Promise<{ value: CacheObject; etag: string } | undefined> {
    try {
      return await objects.getJson(key, CacheObjectSchema);
    } catch (e) {
      if (e instanceof CorruptObjectError) return undefined; // replaced by the next write
      throw e;
    }
  }

  return {
    async lookup(identity: EvaluatorIdentity, candidateId: string, seed: number, cases: readonly Case[]): Promise<CacheLookup> {
      const stored = await read(keyOf(identity, candidateId, seed));
      const hits = new Map<string, Evaluation>();
      if (!stored) return { hits };
      for (const c of cases) {
        const entry = stored.value.entries[cacheEntryKey(c.id, caseVersion(c))];
        if (entry && entry.caseId === c.id) hits.set(c.id, entry);
      }
      return { hits };
    },

    /** Adds evaluations of `cases` (same order) to the candidate's object under this seed and evaluator. */
    async store(identity: EvaluatorIdentity, candidateId: string, seed: number, cases: readonly Case[], evaluations: readonly Evaluation[]): Promise<void> {
      if (evaluations.length === 0) return;
      const key = keyOf(identity, candidateId, seed);
      const added = Object.fromEntries(cases.map((c, i) => [cacheEntryKey(c.id, caseVersion(c)), storedEvaluation(evaluations[i])]));
      const evaluator = { taskQueue: identity.taskQueue, evaluatorVersion: identity.evaluatorVersion, ...(identity.modelVersion ? { modelVersion: identity.modelVersion } : {}) };
      await retryOnConflict(async () => {
        let current: { value: CacheObject; etag: string } | undefined;
        try {
          current = await objects.getJson(key, CacheObjectSchema);
        } catch (e) {
          if (!(e instanceof CorruptObjectError)) throw e;
          await objects.put(key, { evaluator, candidateId, seed, entries: added });
          return;
        }
        if (!current) {
          await objects.putCreateOnly(key, { evaluator, candidateId, seed, entries: added });
          return;
        }
        if (Object.keys(added).every((k) => k in current.value.entries)) return; // a retry, or another writer got there first
        await objects.putIfMatch(key, { ...current.value, entries: { ...current.value.entries, ...added } }, current.etag);
      });
    },
  };
}

export type EvaluationCache = ReturnType<typeof evaluationCache>;
