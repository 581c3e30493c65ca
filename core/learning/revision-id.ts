import { shortHash } from '../skills/hash';

/**
 * A revision id is a function of the job that produced it and the candidate's position in
 * that job's (reconciled) decision, so a retried activity or a replayed workflow names the
 * same revision again instead of minting a second one. Safe as one S3 key segment and
 * inside Temporal workflow ids. (Workflow ids: core/workflow-ids.ts.)
 */

/** `rev-{24 hex of sha256(jobId)}-{ordinal}`; ordinal is the candidate's 0-based position in the job. */
export function revisionIdFor(jobId: string, ordinal: number): string {
  if (jobId === '') throw new RangeError('jobId must not be empty');
  return `rev-${shortHash(jobId, 24)}-${checkedOrdinal(ordinal)}`;
}

/**
 * Where a learning job's outcome is stored (storage `jobOutcomeKey`): 8 hex of its scope
 * key's hash, so a scope's outcomes share a prefix, and 32 of its job id's (the job id names
 * the scope: the job part alone keeps two jobs' ids apart, against a tenant choosing ids too).
 */
export interface LearningJobTag {
  scope: string;
  job: string;
}

export function learningJobTag(scopeKey: string, jobId: string): LearningJobTag {
  if (jobId === '') throw new RangeError('jobId must not be empty');
  return { scope: scopeTagOf(scopeKey), job: shortHash(jobId, 32) };
}

/** The scope part of its learning jobs' tags. */
export function scopeTagOf(scopeKey: string): string {
  if (scopeKey === '') throw new RangeError('scopeKey must not be empty');
  return shortHash(scopeKey, 8);
}

/**
 * A learning job's revision: `rev-{scope tag}-{job tag}-{ordinal}`. The id names its job's
 * stored outcome, which names the revision's skill, so a bare id finds the revision without
 * a locator object of its own.
 */
export function learningRevisionIdFor(scopeKey: string, jobId: string, ordinal: number): string {
  const tag = learningJobTag(scopeKey, jobId);
  return `rev-${tag.scope}-${tag.job}-${checkedOrdinal(ordinal)}`;
}

const LEARNING_REVISION_ID = /^rev-([0-9a-f]{8})-([0-9a-f]{32})-(?:0|[1-9][0-9]*)$/;

/** The job tag a learning revision id carries (undefined for ids of any other shape, those of older learning jobs included). */
export function learningJobTagOf(revisionId: string): LearningJobTag | undefined {
  const m = LEARNING_REVISION_ID.exec(revisionId);
  return m ? { scope: m[1]!, job: m[2]! } : undefined;
}

function checkedOrdinal(ordinal: number): number {
  if (!Number.isInteger(ordinal) || ordinal < 0) throw new RangeError(`ordinal must be a non-negative integer, got ${ordinal}`);
  return ordinal;
}
