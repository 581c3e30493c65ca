import type { z } from 'zod';
import { ActivePointerSchema, type ActivePointer, type SkillSpec, type TombstonePointer } from '../core';
import { sameJson } from './canonical-json';
import { InvalidStorageRequestError, PreconditionConflictError } from './errors';
import { parseInput } from './input';
import { activeKey } from './keys';
import type { ObjectStore } from './object-store';

export type ActivePointerInput = z.input<typeof ActivePointerSchema>;

export interface StoredPointer {
  pointer: ActivePointer;
  etag: string;
}

/** The pointer that records an approved delete (readers see "no active skill"). */
export function tombstonePointer(fields: { skillId: string; revisionId: string; publishedAt: string; spec?: SkillSpec; managed?: boolean; seq?: number }): TombstonePointer {
  return { managed: true, seq: 0, recent: [], ...fields, deleted: true };
}

/**
 * The active pointer, the single source of truth for what is published (invariant 2).
 * It only ever changes by one conditional PUT.
 */
export function pointerStore(objects: ObjectStore) {
  /** The raw pointer, tombstones included (a writer needs their ETag); see `isLivePointer`. */
  async function readActive(scopeKey: string, skillId: string): Promise<StoredPointer | undefined> {
    const stored = await objects.getJson(activeKey(scopeKey, skillId), ActivePointerSchema);
    return stored && { pointer: stored.value, etag: stored.etag };
  }

  /**
   * `expectedEtag: null` is the first write (`If-None-Match: *`), otherwise `If-Match`.
   * A lost race is a PreconditionConflictError; the caller re-reads and decides. If the
   * stored pointer already equals `pointer` (our own earlier attempt whose response was
   * lost), that is success.
   */
  async function writeActive(scopeKey: string, skillId: string, input: ActivePointerInput, expectedEtag: string | null): Promise<StoredPointer> {
    const pointer = parseInput(ActivePointerSchema, input, `active pointer for skill ${skillId}`);
    if (pointer.skillId !== skillId) {
      throw new InvalidStorageRequestError(`active pointer names skill ${pointer.skillId} but is written for skill ${skillId}`);
    }
    const key = activeKey(scopeKey, skillId);
    try {
      const { etag } = expectedEtag === null ? await objects.putCreateOnly(key, pointer) : await objects.putIfMatch(key, pointer, expectedEtag);
      return { pointer, etag };
    } catch (error) {
      if (!(error instanceof PreconditionConflictError)) throw error;
      const current = await readActive(scopeKey, skillId);
      if (current && sameJson(current.pointer, pointer)) return current;
      // Either way another writer moved the pointer: re-reading may succeed.
      throw new PreconditionConflictError(key, error.condition, {
        message: `active pointer ${key} changed concurrently (${expectedEtag === null ? 'it already exists' : `expected ETag ${expectedEtag}`})`,
        retryable: true,
        cause: error,
      });
    }
  }

  return { readActive, writeActive };
}

export type PointerStore = ReturnType<typeof pointerStore>;
