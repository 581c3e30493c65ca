import type { UsageReport } from '../usage/report';

/** A live skill as curation sees it: from the scope index, plus whether an approver pinned it. */
export interface CuratedSkill {
  skillId: string;
  name: string;
  managed: boolean;
  pinned: boolean;
}

export interface ArchiveProposal {
  kind: 'archive';
  skillId: string;
  name: string;
  reason: string;
  offered: number;
  lastLoadedAt?: string;
}

export interface SkippedSkill {
  skillId: string;
  name: string;
  why: 'pinned' | 'unmanaged';
}

/**
 * Archive proposals: live skills the usage report flags unused over its window (offered for
 * the whole window, loaded not once in it). Never a pinned skill, never an unmanaged one
 * (those are listed as skipped, so a dry run says why they were spared).
 */
export function archiveProposals(report: UsageReport, skills: readonly CuratedSkill[]): { proposals: ArchiveProposal[]; skipped: SkippedSkill[] } {
  const byId = new Map(skills.map((s) => [s.skillId, s]));
  const proposals: ArchiveProposal[] = [];
  const skipped: SkippedSkill[] = [];
  for (const s of report.skills) {
    const skill = byId.get(s.skillId);
    if (!s.unused || !skill) continue;
    if (skill.pinned) skipped.push({ skillId: s.skillId, name: s.name, why: 'pinned' });
    else if (!skill.managed) skipped.push({ skillId: s.skillId, name: s.name, why: 'unmanaged' });
    else
      proposals.push({
        kind: 'archive',
        skillId: s.skillId,
        name: s.name,
        reason: `not loaded in ${report.windowDays} days (offered to ${s.offered} sessions${s.lastLoadedAt ? `; last loaded ${s.lastLoadedAt}` : '; never loaded'})`,
        offered: s.offered,
        ...(s.lastLoadedAt ? { lastLoadedAt: s.lastLoadedAt } : {}),
      });
  }
  return { proposals, skipped };
}
