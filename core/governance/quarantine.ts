import { shortHash } from '../skills/hash';
import type { ReviewFailure } from './types';

/**
 * Identity of "the same delta" across jobs: failed reviews do not advance the cursor, so
 * the session's next job starts its delta at the same cursor position with the same first
 * event (later events may have been appended). Safe as one storage-key segment.
 */
export function deltaFingerprint(cursor: { lastReviewedAt?: string; lastEventCount?: number }, firstEvent: unknown): string {
  return `d-${shortHash(JSON.stringify([cursor.lastReviewedAt ?? null, cursor.lastEventCount ?? 0, firstEvent ?? null]), 32)}`;
}

/** The delta is poison once it has failed review `after` times (distinct jobs). */
export function isPoisonDelta(failures: readonly ReviewFailure[], after: number): boolean {
  return new Set(failures.map((f) => f.jobId)).size >= after;
}

/** Adds one job's failure (idempotent by job id, so a retried activity records it once). */
export function withReviewFailure(failures: readonly ReviewFailure[], failure: ReviewFailure): ReviewFailure[] {
  return failures.some((f) => f.jobId === failure.jobId) ? [...failures] : [...failures, failure];
}
