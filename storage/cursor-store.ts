import { CorruptObjectError, PreconditionConflictError } from './errors';
import { z } from 'zod';
import { ReviewCursorSchema, type ReviewCursor } from '../core';
import { ReviewDecisionSchema, type ReviewDecision } from '../core/schemas/review';
import { ReviewFailureSchema, withReviewFailure, type ReviewFailure } from '../core/governance';
import { retryOnConflict } from './cas-retry';
import { parseInput } from './input';
import { cursorKey } from './keys';
import type { ObjectStore } from './object-store';

/**
 * S3 mirror of a session's review cursor (core's cursor plus the job time that wrote it).
 * The same object keeps the failed reviews of the delta that starts at the cursor (the
 * poison-delta count), so preparing a review reads one object, not two; advancing the
 * cursor drops them with the delta they belonged to. The review step that advances it
 * stores the reviewer's answer in the same write (`review`), so a later attempt of that
 * step finds the answer there instead of calling the model again.
 */
export const StoredCursorSchema = ReviewCursorSchema.extend({
  lastEventCount: z.number().int().nonnegative(),
  updatedAt: z.string(),
});
export type StoredCursor = z.infer<typeof StoredCursorSchema>;

/** Failed reviews of the delta identified by `fingerprint` (see core/governance/quarantine.ts). */
const FailedReviewsSchema = z.object({ fingerprint: z.string(), failures: z.array(ReviewFailureSchema) });
export type FailedReviews = z.infer<typeof FailedReviewsSchema>;

/** Which attempt a stored answer belongs to: the job's run and its review step. */
export interface ReviewStep {
  runId: string;
  activityId: string;
}

// Loose: the decision keeps what the reviewer activity added (the answer record, drops).
const StoredReviewSchema = z.object({ runId: z.string(), activityId: z.string(), decision: ReviewDecisionSchema.loose() });

/**
 * What cursor.json holds: the position (absent until a first delta is consumed), the delta's
 * failed reviews, and the answer of the review that moved it there.
 */
const CursorObjectSchema = ReviewCursorSchema.extend({
  lastEventCount: z.number().int().nonnegative().optional(),
  updatedAt: z.string(),
  failedReviews: FailedReviewsSchema.optional(),
  // Checked only when a retried review step reads it (readStepReview): an answer that no longer parses never makes the position unreadable.
  review: z.unknown().optional(),
});
type CursorObject = z.infer<typeof CursorObjectSchema>;

export interface CursorVersion {
  /** The position; undefined while no delta of the session has been consumed. */
  cursor?: StoredCursor;
  /** Failed reviews of the delta after this position, if any. */
  failedReviews?: FailedReviews;
  /** The object's ETag (null: none stored), so the next write can skip re-reading it. */
  etag: string | null;
}

export function cursorStore(objects: ObjectStore) {
  async function readCursorVersion(scopeKey: string, sessionId: string): Promise<CursorVersion> {
    const stored = await objects.getJson(cursorKey(scopeKey, sessionId), CursorObjectSchema);
    if (!stored) return { etag: null };
    return { cursor: positionOf(stored.value), failedReviews: stored.value.failedReviews, etag: stored.etag };
  }

  async function readCursor(scopeKey: string, sessionId: string): Promise<StoredCursor | undefined> {
    return (await readCursorVersion(scopeKey, sessionId)).cursor;
  }

  /** Create-only when nothing was stored (etag null), else conditional on the ETag. */
  async function putAt(key: string, value: CursorObject, etag: string | null): Promise<void> {
    if (etag === null) await objects.putCreateOnly(key, value);
    else await objects.putIfMatch(key, value, etag);
  }

  /**
   * Never moves the mirror backwards in time: a late attempt of an old activity (Temporal
   * may retry one whose first attempt is still running) must not overwrite a newer cursor.
   * `updatedAt` is workflow time of the job that consumed the delta, and a session's jobs
   * run in order, so it orders cursors; the event count may legitimately shrink (a
   * platform that restarts a session's event list). Writing a position drops the failed
   * reviews of the delta it steps past. `review`: the answer of the review step that
   * consumed the delta, stored with the position. Returns the position stored afterwards.
   */
  async function writeCursor(
    scopeKey: string,
    sessionId: string,
    input: z.input<typeof StoredCursorSchema>,
    readVersion?: { etag: string | null },
    review?: ReviewStep & { decision: ReviewDecision },
  ): Promise<StoredCursor> {
    const cursor = parseInput(StoredCursorSchema, input, `review cursor of session ${sessionId}`);
    const key = cursorKey(scopeKey, sessionId);
    const value: CursorObject = review ? { ...cursor, review: { runId: review.runId, activityId: review.activityId, decision: review.decision } } : cursor;
    if (readVersion) {
      // The version the caller read the cursor at: if nothing moved it since, one write.
      try {
        await putAt(key, value, readVersion.etag);
        return cursor;
      } catch (error) {
        if (!(error instanceof PreconditionConflictError)) throw error;
      }
    }
    return retryOnConflict(async () => {
      const stored = await objects.getJson(key, CursorObjectSchema);
      if (stored && isLater(stored.value.updatedAt, cursor.updatedAt)) return positionOf(stored.value) ?? cursor;
      await putAt(key, value, stored?.etag ?? null);
      return cursor;
    });
  }

  /**
   * The reviewer's answer stored by this review step (same run, same step) when it advanced
   * the cursor; undefined otherwise, and when the stored object is unreadable (the model is
   * asked again, as it would be without it). A re-run of the job (a new run) asks again.
   */
  async function readStepReview(scopeKey: string, sessionId: string, step: ReviewStep): Promise<ReviewDecision | undefined> {
    const stored = await objects.getJson(cursorKey(scopeKey, sessionId), CursorObjectSchema).catch((e: unknown) => {
      if (e instanceof CorruptObjectError) return undefined;
      throw e;
    });
    const review = StoredReviewSchema.safeParse(stored?.value.review).data;
    return review && review.runId === step.runId && review.activityId === step.activityId ? (review.decision as ReviewDecision) : undefined;
  }

  /**
   * Counts one failed review of the delta after `position` (idempotent by job id). Nothing
   * is recorded when the cursor has moved past that position since: the delta is gone.
   * Returns the failures now stored for the delta.
   */
  async function recordFailedReview(
    scopeKey: string,
    sessionId: string,
    { position, fingerprint, failure }: { position: ReviewCursor; fingerprint: string; failure: ReviewFailure },
  ): Promise<ReviewFailure[]> {
    const parsed = parseInput(ReviewFailureSchema, failure, `failed review of session ${sessionId}`);
    const key = cursorKey(scopeKey, sessionId);
    // One session's jobs run one at a time (its session entity): the conflict loop only
    // guards against a late attempt of an earlier activity.
    return retryOnConflict(async () => {
      const stored = await objects.getJson(key, CursorObjectSchema);
      if (!samePosition(stored?.value, position)) return [];
      const earlier = stored?.value.failedReviews?.fingerprint === fingerprint ? stored.value.failedReviews.failures : [];
      const failures = withReviewFailure(earlier, parsed);
      if (failures.length === earlier.length) return failures;
      const updatedAt = stored && isLater(stored.value.updatedAt, parsed.at) ? stored.value.updatedAt : parsed.at;
      await putAt(key, { ...(stored?.value ?? {}), updatedAt, failedReviews: { fingerprint, failures } }, stored?.etag ?? null);
      return failures;
    });
  }

  return { readCursor, readCursorVersion, writeCursor, readStepReview, recordFailedReview };
}

export type CursorStore = ReturnType<typeof cursorStore>;

function positionOf(stored: CursorObject): StoredCursor | undefined {
  if (stored.lastEventCount === undefined) return undefined;
  const { lastReviewedAt, lastEventCount, updatedAt } = stored;
  return { ...(lastReviewedAt !== undefined ? { lastReviewedAt } : {}), lastEventCount, updatedAt };
}

function samePosition(stored: CursorObject | undefined, position: ReviewCursor): boolean {
  return (stored?.lastReviewedAt ?? undefined) === (position.lastReviewedAt ?? undefined) && (stored?.lastEventCount ?? 0) === (position.lastEventCount ?? 0);
}

/** By instant, not by string: `…:01Z` sorts after `…:01.500Z` as text. */
function isLater(a: string, b: string): boolean {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isNaN(ta) || Number.isNaN(tb) ? a > b : ta > tb;
}
