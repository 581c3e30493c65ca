/**
 * Keys of the evaluation cache (pure; the store is activities/gepa/evaluation-cache.ts).
 *
 * An evaluation may be reused only if everything that determines it is the same:
 * - the candidate's content: its fingerprint (SHA-256 of the canonical spec), which is
 *   also its id, so equal specs share entries across iterations and experiments;
 * - the case: its id and its version, a hash of its content (input, expected, critical,
 *   metadata), so a case edited in a new dataset version never hits;
 * - the seed the evaluator was given (it fixes the task environment: paired comparisons
 *   need both sides under one seed);
 * - the evaluator: its task queue, the evaluatorVersion and modelVersion it reports
 *   (describeEvaluator), so a changed evaluator or model never hits.
 * One cache object holds one candidate's evaluations under one seed and one evaluator
 * identity: a batch reads one object and writes at most one.
 */
import type { Case, EvaluatorDescription } from '../schemas/gepa';
import { canonicalJson } from '../canonical-json';
import { shortHash } from '../skills/hash';

export interface EvaluatorIdentity extends EvaluatorDescription {
  taskQueue: string;
}

/** 32 hex digits naming one evaluator identity (task queue + versions). */
export function evaluatorKey(identity: EvaluatorIdentity): string {
  return shortHash(canonicalJson([identity.taskQueue, identity.evaluatorVersion, identity.modelVersion ?? null]), 32);
}

/** A case's version: 16 hex digits over its canonical content (id excluded: it is the other half of the key). */
export function caseVersion(c: Pick<Case, 'input' | 'expected' | 'critical' | 'metadata'>): string {
  return shortHash(canonicalJson({ input: c.input, expected: c.expected ?? null, critical: c.critical, metadata: c.metadata ?? null }), 16);
}

/** The entry of one case within a cache object. */
export function cacheEntryKey(caseId: string, version: string): string {
  return `${caseId}@${version}`;
}

/** Whether two evaluator identities are the same for caching and re-certification. */
export function sameEvaluator(a: EvaluatorDescription | undefined, b: EvaluatorDescription | undefined): boolean {
  if (!a || !b) return false;
  return a.evaluatorVersion === b.evaluatorVersion && (a.modelVersion ?? null) === (b.modelVersion ?? null);
}
