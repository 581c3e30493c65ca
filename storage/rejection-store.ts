import { z } from 'zod';
import { addRejection, type RejectionNote } from '../core/governance/rejections';
import type { Same } from '../core/same-type';
import { retryOnConflict } from './cas-retry';
import { PreconditionConflictError } from './errors';
import { rejectionsKey } from './keys';
import { parseJson, type ObjectStore } from './object-store';

const RejectionNoteSchema = z.object({
  revisionId: z.string(),
  skillId: z.string(),
  name: z.string(),
  action: z.string(),
  source: z.string(),
  rejectedAt: z.string(),
  reviewer: z.string(),
  comment: z.string(),
  proposed: z.object({ description: z.string(), steps: z.array(z.string()), pitfalls: z.array(z.string()) }).optional(),
});
const RejectionsSchema = z.object({ notes: z.array(RejectionNoteSchema) });

const _noteMatchesCore: Same<z.infer<typeof RejectionNoteSchema>, RejectionNote> = true;
void _noteMatchesCore;

const CACHED_SCOPES = 256;

/**
 * A scope's recent rejections: one small bounded object. Written on each human rejection
 * (rare; a read-modify-write by If-Match), read by each review with a conditional GET (a 304
 * while nothing was rejected).
 */
export function rejectionStore(objects: ObjectStore) {
  const cache = new Map<string, { notes: RejectionNote[]; etag: string } | null>();
  function remember(scopeKey: string, value: { notes: RejectionNote[]; etag: string } | null) {
    cache.delete(scopeKey);
    cache.set(scopeKey, value);
    if (cache.size > CACHED_SCOPES) cache.delete(cache.keys().next().value!);
  }

  async function read(scopeKey: string): Promise<{ notes: RejectionNote[]; etag: string } | null> {
    const key = rejectionsKey(scopeKey);
    const cached = cache.get(scopeKey);
    const got = await objects.getText(key, cached?.etag);
    if (!got) {
      remember(scopeKey, null);
      return null;
    }
    if (got.notModified) return cached!;
    const value = { notes: parseJson(key, got.value, RejectionsSchema).notes, etag: got.etag };
    remember(scopeKey, value);
    return value;
  }

  /** The scope's recent rejections, newest first (one conditional GET). */
  async function readRejections(scopeKey: string): Promise<RejectionNote[]> {
    return (await read(scopeKey))?.notes ?? [];
  }

  /** Idempotent by revision id. */
  async function recordRejection(scopeKey: string, note: RejectionNote): Promise<void> {
    const key = rejectionsKey(scopeKey);
    await retryOnConflict(async () => {
      const base = await read(scopeKey);
      const { notes, changed } = addRejection(base?.notes ?? [], note);
      if (!changed) return;
      try {
        const { etag } = base ? await objects.putIfMatch(key, { notes }, base.etag) : await objects.putCreateOnly(key, { notes });
        remember(scopeKey, { notes, etag });
      } catch (error) {
        if (error instanceof PreconditionConflictError) cache.delete(scopeKey);
        throw error;
      }
    });
  }

  return { readRejections, recordRejection };
}
