import { PreconditionConflictError } from './errors';
import { z } from 'zod';
import { ReviewCursorSchema } from '../../core';
import { retryOnConflict } from './cas-retry';
import { parseInput } from './input';
import { cursorKey } from './keys';
import type { ObjectStore } from './object-store';

/** S3 mirror of a session's review cursor (core's cursor plus the job time that wrote it). */
export const StoredCursorSchema = ReviewCursorSchema.extend({
  lastEventCount: z.number().int().nonnegative(),
  updatedAt: z.string(),
});
export type StoredCursor = z.infer<typeof StoredCursorSchema>;

export function cursorStore(objects: ObjectStore) {
  async function readCursor(scopeKey: string, sessionId: string): Promise<StoredCursor | undefined> {
    return (await readCursorVersion(scopeKey, sessionId)).cursor;
  }

  /** The cursor and its ETag (null: none stored), so the next write can skip re-reading it. */
  async function readCursorVersion(scopeKey: string, sessionId: string): Promise<{ cursor?: StoredCursor; etag: string | null }> {
    const stored = await objects.getJson(cursorKey(scopeKey, sessionId), StoredCursorSchema);
    return { cursor: stored?.value, etag: stored?.etag ?? null };
  }

  /**
   * Never moves the mirror backwards in time: a late attempt of an old activity (Temporal
   * may retry one whose first attempt is still running) must not overwrite a newer cursor.
   * `updatedAt` is workflow time of the job that consumed the delta, and a session's jobs
   * run in order, so it orders cursors; the event count may legitimately shrink (a
   * platform that restarts a session's event list). Returns what is stored afterwards.
   */
  async function writeCursor(scopeKey: string, sessionId: string, input: z.input<typeof StoredCursorSchema>, readVersion?: { etag: string | null }): Promise<StoredCursor> {
    const cursor = parseInput(StoredCursorSchema, input, `review cursor of session ${sessionId}`);
    const key = cursorKey(scopeKey, sessionId);
    if (readVersion) {
      // The version the caller read the cursor at: if nothing moved it since, one write.
      try {
        if (readVersion.etag === null) await objects.putCreateOnly(key, cursor);
        else await objects.putIfMatch(key, cursor, readVersion.etag);
        return cursor;
      } catch (error) {
        if (!(error instanceof PreconditionConflictError)) throw error;
      }
    }
    return retryOnConflict(async () => {
      const stored = await objects.getJson(key, StoredCursorSchema);
      if (stored && isLater(stored.value.updatedAt, cursor.updatedAt)) return stored.value;
      if (stored) await objects.putIfMatch(key, cursor, stored.etag);
      else await objects.putCreateOnly(key, cursor);
      return cursor;
    });
  }

  return { readCursor, readCursorVersion, writeCursor };
}

export type CursorStore = ReturnType<typeof cursorStore>;

/** By instant, not by string: `…:01Z` sorts after `…:01.500Z` as text. */
function isLater(a: string, b: string): boolean {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isNaN(ta) || Number.isNaN(tb) ? a > b : ta > tb;
}
