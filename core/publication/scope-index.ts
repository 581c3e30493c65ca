/**
 * The scope index as data: one entry per live skill, each stamped with the pointer seq it
 * was derived from, so changes can be applied in any order and any number of times
 * (highest seq wins; equal seq is the same operation, re-applied harmlessly).
 */
export interface IndexEntry {
  skillId: string;
  name: string;
  description: string;
  revisionId: string;
  managed: boolean;
  seq: number;
  /** A live canary: sessions in its cohort (core/rollout cohortOf) are offered this revision instead. */
  canary?: IndexCanary;
}

export interface IndexCanary {
  revisionId: string;
  fraction: number;
  name: string;
  description: string;
}

/** "Skill X now points at revision R (live: its entry; tombstone: none), pointer seq N." */
export interface IndexChange {
  skillId: string;
  seq: number;
  revisionId: string;
  entry?: { name: string; description: string; managed: boolean; canary?: IndexCanary };
  /** Workflow to tell (IndexApplied) once this change is in the index. */
  ackTo?: string;
}

export interface IndexContent {
  skills: IndexEntry[];
  /** Seq of the tombstone that removed each deleted skill, so an older "live" change cannot resurrect it. */
  removed: { skillId: string; seq: number }[];
}

/** Of several pending changes to one skill, the newest (use when collecting a burst). */
export function newerChange(a: IndexChange | undefined, b: IndexChange): IndexChange {
  return a && a.seq > b.seq ? a : b;
}

/** Applies changes (any order, repeats allowed). `changed` is false when nothing differs, so no write is needed. */
export function applyIndexChanges(index: IndexContent, changes: readonly IndexChange[]): IndexContent & { changed: boolean; applied: IndexChange[] } {
  const skills = new Map(index.skills.map((e) => [e.skillId, e]));
  const removed = new Map(index.removed.map((r) => [r.skillId, r.seq]));
  let changed = false;
  const applied: IndexChange[] = [];
  for (const c of changes) {
    const known = skills.get(c.skillId)?.seq ?? removed.get(c.skillId) ?? -1;
    if (c.seq < known) continue;
    let differs = false;
    if (c.entry) {
      const next: IndexEntry = {
        skillId: c.skillId,
        name: c.entry.name,
        description: c.entry.description,
        managed: c.entry.managed,
        revisionId: c.revisionId,
        seq: c.seq,
        ...(c.entry.canary ? { canary: c.entry.canary } : {}),
      };
      const before = skills.get(c.skillId);
      if (!before || !sameEntry(before, next)) differs = true;
      skills.set(c.skillId, next);
      if (removed.delete(c.skillId)) differs = true;
    } else {
      if (skills.delete(c.skillId)) differs = true;
      if (removed.get(c.skillId) !== c.seq) differs = true;
      removed.set(c.skillId, c.seq);
    }
    if (differs) {
      changed = true;
      applied.push(c);
    }
  }
  const byId = (a: { skillId: string }, b: { skillId: string }) => (a.skillId < b.skillId ? -1 : a.skillId > b.skillId ? 1 : 0);
  return {
    skills: [...skills.values()].sort(byId),
    removed: [...removed].map(([skillId, seq]) => ({ skillId, seq })).sort(byId),
    changed,
    applied,
  };
}

/** A publication the scope index is to include: pointer seq `seq` of skill `skillId` (or newer). */
export interface IndexedPublication {
  skillId: string;
  seq: number;
}

/**
 * Whether the index already reflects pointer seq `seq` of a skill (a live entry or a
 * tombstone at that seq or newer): what a caller waiting for read-your-writes checks.
 */
export function indexIncludes(index: IndexContent, skillId: string, seq: number): boolean {
  const known = index.skills.find((e) => e.skillId === skillId)?.seq ?? index.removed.find((r) => r.skillId === skillId)?.seq ?? -1;
  return known >= seq;
}

/** Field by field: an entry parsed from storage may carry its keys in another order. */
function sameEntry(a: IndexEntry, b: IndexEntry): boolean {
  return (
    a.skillId === b.skillId &&
    a.name === b.name &&
    a.description === b.description &&
    a.managed === b.managed &&
    a.revisionId === b.revisionId &&
    a.seq === b.seq &&
    a.canary?.revisionId === b.canary?.revisionId &&
    a.canary?.fraction === b.canary?.fraction &&
    a.canary?.name === b.canary?.name &&
    a.canary?.description === b.canary?.description
  );
}

/**
 * A full reconcile: `fromPointers` holds one change per pointer read now. Entries the
 * scope no longer has a pointer for are dropped; otherwise the highest seq wins, so a
 * change applied after the listing began is kept.
 */
export function reconcileIndex(index: IndexContent, fromPointers: readonly IndexChange[]): IndexContent & { changed: boolean; applied: IndexChange[] } {
  const present = new Set(fromPointers.map((c) => c.skillId));
  const kept: IndexContent = { skills: index.skills.filter((e) => present.has(e.skillId)), removed: index.removed.filter((r) => present.has(r.skillId)) };
  const merged = applyIndexChanges(kept, fromPointers);
  const dropped = kept.skills.length !== index.skills.length || kept.removed.length !== index.removed.length;
  return { ...merged, changed: merged.changed || dropped };
}

/** Names shared by the scope index workflow and the code that signals it (activities may not import workflows/). */
export const SCOPE_INDEX_WORKFLOW = 'scopeIndexWorkflow';
/** `rejections`: the version of the scope's rejections after an approver's (or a rollout's) rejection, for the index to record. */
export const SCOPE_INDEX_SIGNALS = { change: 'indexChange', reconcile: 'reconcileIndex', applied: 'indexApplied', rejections: 'rejectionsRecorded' } as const;
/**
 * Update: a pointer change whose caller waits for it to be materialized (update-with-start).
 * Answers true once the index includes it; false when the workflow continues
 * as new first (then the change's `ackTo` gets the IndexApplied signal from the next run).
 */
export const SCOPE_INDEX_APPLY_UPDATE = 'applyIndexChange';

/** Sent back to the workflow that published a change once the index includes it (read-your-writes). */
export interface IndexApplied {
  scopeKey: string;
  skillId: string;
  seq: number;
}
