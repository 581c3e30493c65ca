import { skillIdForName } from '../core/skills/scope-key';
import type { ActivePointer, UsageSummary } from '../core';
import type { ScopeIndex } from './scope-index-store';
import type { SkillStore } from './skill-store';

/** What a curator run reads from storage: the index, the usage summary and the pins (three GETs), plus the pointer of each skill asked to be revived. */
export interface CurationReads {
  index?: ScopeIndex;
  usage?: UsageSummary;
  pinned: string[];
  /** Skill asked to be revived (by name or id) → its pointer now (undefined: never published). */
  revive: { asked: string; skillId: string; pointer?: ActivePointer }[];
}

export async function readCurationInputs(store: SkillStore, scopeKey: string, revive: readonly string[] = []): Promise<CurationReads> {
  const [index, usage, pins, pointers] = await Promise.all([
    store.readScopeIndex(scopeKey),
    store.readUsage(scopeKey),
    store.readPins(scopeKey),
    Promise.all(
      revive.map(async (asked) => {
        const skillId = /^[a-z0-9-]+$/.test(asked) ? asked : skillIdForName(asked);
        return { asked, skillId, pointer: (await store.readActive(scopeKey, skillId))?.pointer };
      }),
    ),
  ]);
  return {
    ...(index && !index.notModified ? { index: index.index } : {}),
    ...(usage ? { usage: usage.summary } : {}),
    pinned: pins.map((p) => p.skillId),
    revive: pointers,
  };
}
