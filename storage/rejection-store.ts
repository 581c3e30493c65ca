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
/** `version`: +1 on every note added (absent in objects written before it: their version is their number of notes). */
const RejectionsSchema = z.object({ notes: z.array(RejectionNoteSchema), version: z.number().int().nonnegative().optional() });
type Rejections = { notes: RejectionNote[]; version: number; etag: string };

const _noteMatchesCore: Same<z.infer<typeof RejectionNoteSchema>, RejectionNote> = true;
void _noteMatchesCore;

const CACHED_SCOPES = 256;

/**
 * A scope's recent rejections: one small bounded object. Written on each human rejection
 * (rare; a read-modify-write by If-Match). Its version is announced to the scope's index, so
 * a review reads the object only when the index names a version this process has not seen
 * (readRejectionsAt), and never while the scope has none.
 */
export function rejectionStore(objects: ObjectStore) {
  const cache = new Map<string, Rejections | null>();
  function remember(scopeKey: string, value: Rejections | null) {
    cache.delete(scopeKey);
    cache.set(scopeKey, value);
    if (cache.size > CACHED_SCOPES) cache.delete(cache.keys().next().value!);
  }

  async function read(scopeKey: string): Promise<Rejections | null> {
    const key = rejectionsKey(scopeKey);
    const cached = cache.get(scopeKey);
    const got = await objects.getText(key, cached?.etag);
    if (!got) {
      remember(scopeKey, null);
      return null;
    }
    if (got.notModified) return cached!;
    const stored = parseJson(key, got.value, RejectionsSchema);
    const value = { notes: stored.notes, version: stored.version ?? stored.notes.length, etag: got.etag };
    remember(scopeKey, value);
    return value;
  }

  /** The scope's recent rejections, newest first (one conditional GET). */
  async function readRejections(scopeKey: string): Promise<RejectionNote[]> {
    return (await read(scopeKey))?.notes ?? [];
  }

  /** The scope's rejections at `version` or later, as the scope index names it: no request when this process has them. */
  async function readRejectionsAt(scopeKey: string, version: number): Promise<RejectionNote[]> {
    if (version === 0) return [];
    const cached = cache.get(scopeKey);
    if (cached && cached.version >= version) return cached.notes;
    return readRejections(scopeKey);
  }

  /** The version of the scope's rejections (0: none recorded), one conditional GET. */
  async function rejectionsVersion(scopeKey: string): Promise<number> {
    return (await read(scopeKey))?.version ?? 0;
  }

  /** Idempotent by revision id. Returns the version that includes the note (to announce to the scope's index). */
  async function recordRejection(scopeKey: string, note: RejectionNote): Promise<number> {
    const key = rejectionsKey(scopeKey);
    return retryOnConflict(async () => {
      const base = await read(scopeKey);
      const { notes, changed } = addRejection(base?.notes ?? [], note);
      if (!changed) return base!.version;
      const version = (base?.version ?? 0) + 1;
      try {
        const { etag } = base ? await objects.putIfMatch(key, { notes, version }, base.etag) : await objects.putCreateOnly(key, { notes, version });
        remember(scopeKey, { notes, version, etag });
        return version;
      } catch (error) {
        if (error instanceof PreconditionConflictError) cache.delete(scopeKey);
        throw error;
      }
    });
  }

  return { readRejections, readRejectionsAt, rejectionsVersion, recordRejection };
}
