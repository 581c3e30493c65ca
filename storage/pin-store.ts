import { z } from 'zod';
import { retryOnConflict } from './cas-retry';
import { pinsKey } from './keys';
import type { ObjectStore } from './object-store';

const PinSchema = z.object({ skillId: z.string(), by: z.string(), at: z.string(), comment: z.string().default('') });
const PinsSchema = z.object({ pins: z.array(PinSchema) });
export type Pin = z.infer<typeof PinSchema>;

/** A scope's pinned skills: one small object, changed by If-Match (pinning is a rare approver action). */
export function pinStore(objects: ObjectStore) {
  async function readPins(scopeKey: string): Promise<Pin[]> {
    return (await objects.getJson(pinsKey(scopeKey), PinsSchema))?.value.pins ?? [];
  }

  /** Pins (or unpins) a skill; true when that changed anything (pinning a pinned skill does not). */
  async function setPinned(scopeKey: string, skillId: string, pinned: boolean, by: { actor: string; at: string; comment?: string }): Promise<boolean> {
    const key = pinsKey(scopeKey);
    return retryOnConflict(async () => {
      const got = await objects.getJson(key, PinsSchema);
      const pins = got?.value.pins ?? [];
      const has = pins.some((p) => p.skillId === skillId);
      if (has === pinned) return false;
      const next = pinned ? [...pins, { skillId, by: by.actor, at: by.at, comment: by.comment ?? '' }] : pins.filter((p) => p.skillId !== skillId);
      // A lost race (PreconditionConflictError) re-reads and decides again.
      if (got) await objects.putIfMatch(key, { pins: next }, got.etag);
      else await objects.putCreateOnly(key, { pins: next });
      return true;
    });
  }

  return { readPins, setPinned };
}
