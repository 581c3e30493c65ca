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
  if (!Number.isInteger(ordinal) || ordinal < 0) throw new RangeError(`ordinal must be a non-negative integer, got ${ordinal}`);
  return `rev-${shortHash(jobId, 24)}-${ordinal}`;
}
