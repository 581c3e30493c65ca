import { publishedKey } from './keys';
import type { ObjectStore } from './object-store';

export type PublishedRead = { notModified: true } | { notModified?: false; markdown: string; etag: string };

/** The materialized SKILL.md: derived from the active pointer and repairable, so written unconditionally. */
export function publishedStore(objects: ObjectStore) {
  async function writePublished(scopeKey: string, skillId: string, markdown: string): Promise<{ etag: string }> {
    return objects.put(publishedKey(scopeKey, skillId), markdown);
  }

  async function deletePublished(scopeKey: string, skillId: string): Promise<void> {
    await objects.delete(publishedKey(scopeKey, skillId));
  }

  /** Pass the last ETag as `ifNoneMatch` for a cheap refresh; undefined when nothing is published. */
  async function readPublished(scopeKey: string, skillId: string, ifNoneMatch?: string): Promise<PublishedRead | undefined> {
    const got = await objects.getText(publishedKey(scopeKey, skillId), ifNoneMatch);
    if (!got || got.notModified) return got;
    return { markdown: got.value, etag: got.etag };
  }

  return { writePublished, deletePublished, readPublished };
}

export type PublishedStore = ReturnType<typeof publishedStore>;
