import { archiveProposals, type ArchiveProposal, type SkippedSkill } from '../core/curation';
import { NotFoundError } from '../core/errors';
import type { SkillStore } from '../storage';
import { scopeUsage } from './usage';

export const DEFAULT_CURATION_WINDOW_MS = 30 * 24 * 60 * 60_000;

export interface CurationReport {
  scopeKey: string;
  windowDays: number;
  /** What curation would propose (each as a revision through the gates, held for approval). */
  proposals: ArchiveProposal[];
  /** Unused skills it leaves alone, and why. */
  skipped: SkippedSkill[];
}

/** The dry run of a scope's curation: archive proposals from the usage counters, the index and the pins (three GETs). */
export async function curationDryRun(store: SkillStore, scopeKey: string, opts: { windowMs?: number; now?: number } = {}): Promise<CurationReport> {
  const [report, index, pins] = await Promise.all([
    scopeUsage(store, scopeKey, { windowMs: opts.windowMs ?? DEFAULT_CURATION_WINDOW_MS, ...(opts.now !== undefined ? { now: opts.now } : {}) }),
    store.readScopeIndex(scopeKey),
    store.readPins(scopeKey),
  ]);
  const pinned = new Set(pins.map((p) => p.skillId));
  const live = index && !index.notModified ? index.index.skills : [];
  const { proposals, skipped } = archiveProposals(
    report,
    live.map((s) => ({ skillId: s.skillId, name: s.name, managed: s.managed, pinned: pinned.has(s.skillId) })),
  );
  return { scopeKey, windowDays: report.windowDays, proposals, skipped };
}

/** Pins or unpins a published skill, with an audit entry under the approver's name. */
export async function pinSkill(
  store: SkillStore,
  scopeKey: string,
  name: string,
  pinned: boolean,
  by: { actor: string; comment?: string; at?: string },
): Promise<{ skillId: string; changed: boolean }> {
  const read = await store.readScopeIndex(scopeKey);
  const skill = (read && !read.notModified ? read.index.skills : []).find((s) => s.name.toLowerCase() === name.toLowerCase() || s.skillId === name);
  if (!skill) throw new NotFoundError(`no published skill named "${name}" in ${scopeKey}`);
  const at = by.at ?? new Date().toISOString();
  const changed = await store.setPinned(scopeKey, skill.skillId, pinned, { actor: by.actor, at, comment: by.comment });
  if (changed) {
    await store.appendAudit({
      id: `${pinned ? 'pin' : 'unpin'}:${skill.skillId}:${at}`,
      at,
      action: pinned ? 'pin' : 'unpin',
      skillId: skill.skillId,
      scopeKey,
      revisionId: skill.revisionId,
      actor: by.actor,
      reason: by.comment ?? '',
    });
  }
  return { skillId: skill.skillId, changed };
}
