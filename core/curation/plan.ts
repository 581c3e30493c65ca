import { usageReport, type UsageReport } from '../usage/report';
import { emptyUsage, type UsageSummary } from '../usage/summary';
import { revisionIdFor } from '../learning/revision-id';
import { archiveProposals, type ArchiveProposal } from './archive';
import { nearDuplicatePairs } from './similarity';

export const DEFAULT_CURATION_WINDOW_MS = 30 * 24 * 60 * 60_000;
export const DEFAULT_SIMILARITY_THRESHOLD = 0.6;
/** Merges per run: each costs a model call and two pointer reads, so a run's cost stays bounded at any scope size. */
export const DEFAULT_MAX_MERGES = 5;

export interface CurationSettings {
  windowMs: number;
  similarityThreshold: number;
  maxMerges: number;
}

export const DEFAULT_CURATION_SETTINGS: CurationSettings = {
  windowMs: DEFAULT_CURATION_WINDOW_MS,
  similarityThreshold: DEFAULT_SIMILARITY_THRESHOLD,
  maxMerges: DEFAULT_MAX_MERGES,
};

/** A live skill of the scope index, with whether an approver pinned it. */
export interface LiveSkill {
  skillId: string;
  name: string;
  description: string;
  revisionId: string;
  managed: boolean;
  pinned: boolean;
}

/** An archived skill someone asked for again, as its tombstone pointer names it. */
export interface ReviveRequest {
  skillId: string;
  name: string;
  /** The delete (archive) revision the tombstone names; undefined when the skill is live. */
  tombstoneRevisionId?: string;
  /** Whether the tombstone carries the archived content (a delete of an unknown spec cannot be revived). */
  hasContent: boolean;
  /** Who asked, and why (shown to the approver). */
  requestedBy: string;
}

export interface ReviveProposal {
  kind: 'revive';
  skillId: string;
  name: string;
  /** The archive revision it restores the content of. */
  revisionId: string;
  reason: string;
}

export interface SkillRef {
  skillId: string;
  name: string;
  revisionId: string;
}

export interface MergeProposal {
  kind: 'merge';
  /** The skill that stays, updated to the merged content. */
  keep: SkillRef;
  /** The near-duplicate archived into it. */
  absorb: SkillRef;
  similarity: number;
  reason: string;
}

export type ArchiveProposalOf = ArchiveProposal & { revisionId: string };
export type CurationProposal = ArchiveProposalOf | ReviveProposal | MergeProposal;

export interface SparedSkill {
  skillId: string;
  name: string;
  why: 'pinned' | 'unmanaged' | 'pending' | 'live' | 'no content' | 'not archived';
}

export interface CurationPlan {
  proposals: CurationProposal[];
  spared: SparedSkill[];
}

export interface CurationPlanInput {
  report: UsageReport;
  skills: readonly LiveSkill[];
  /** Skills with a revision waiting for a decision: never proposed again meanwhile. */
  pending: ReadonlySet<string>;
  revive: readonly ReviveRequest[];
  settings: CurationSettings;
}

/**
 * What one curator run proposes, from what it read (the index, the usage summary, the pins,
 * the open approvals and the tombstones of skills asked for again). Pure: the scheduled run
 * and `evolution curate --dry-run` call it on the same reads.
 *  - archive: a live managed skill not loaded over the window, never a pinned or unmanaged one;
 *  - revive: an archived skill asked for again, restoring its archived content;
 *  - merge: near-duplicate live skills (word similarity of name and description), the one
 *    loaded more is kept; never a pinned, unmanaged or to-be-archived one.
 * No skill with a pending revision is proposed.
 */
export function planCuration(input: CurationPlanInput): CurationPlan {
  const { pending } = input;
  const byId = new Map(input.skills.map((s) => [s.skillId, s]));
  const spared: SparedSkill[] = [];
  const proposals: CurationProposal[] = [];

  const archive = archiveProposals(input.report, input.skills);
  spared.push(...archive.skipped);
  const archived = new Set<string>();
  for (const p of archive.proposals) {
    const skill = byId.get(p.skillId)!;
    if (pending.has(p.skillId)) spared.push({ skillId: p.skillId, name: p.name, why: 'pending' });
    else {
      proposals.push({ ...p, revisionId: skill.revisionId });
      archived.add(p.skillId);
    }
  }

  for (const r of input.revive) {
    if (byId.has(r.skillId)) spared.push({ skillId: r.skillId, name: r.name, why: 'live' });
    else if (!r.tombstoneRevisionId) spared.push({ skillId: r.skillId, name: r.name, why: 'not archived' });
    else if (!r.hasContent) spared.push({ skillId: r.skillId, name: r.name, why: 'no content' });
    else if (pending.has(r.skillId)) spared.push({ skillId: r.skillId, name: r.name, why: 'pending' });
    else
      proposals.push({
        kind: 'revive',
        skillId: r.skillId,
        name: r.name,
        revisionId: r.tombstoneRevisionId,
        reason: `asked for again by ${r.requestedBy}: restores the content archived by ${r.tombstoneRevisionId}`,
      });
  }

  const loads = new Map(input.report.skills.map((s) => [s.skillId, s.loaded]));
  const mergeable = input.skills.filter((s) => s.managed && !s.pinned && !pending.has(s.skillId) && !archived.has(s.skillId));
  for (const pair of nearDuplicatePairs(mergeable, { threshold: input.settings.similarityThreshold, limit: input.settings.maxMerges })) {
    const [a, b] = [byId.get(pair.a)!, byId.get(pair.b)!];
    // The skill loaded more stays (agents know it); on a tie, the one whose id sorts first.
    const [keep, absorb] = (loads.get(b.skillId) ?? 0) > (loads.get(a.skillId) ?? 0) ? [b, a] : [a, b];
    proposals.push({
      kind: 'merge',
      keep: { skillId: keep.skillId, name: keep.name, revisionId: keep.revisionId },
      absorb: { skillId: absorb.skillId, name: absorb.name, revisionId: absorb.revisionId },
      similarity: pair.similarity,
      reason: `near-duplicates (word similarity ${pair.similarity.toFixed(2)}): ${absorb.name} merged into ${keep.name}`,
    });
  }
  return { proposals, spared };
}

/**
 * The operation a proposal is: a function of the scope, the kind and the revisions it is
 * based on, so every run (and every retry) that makes the same proposal names the same
 * revisions, and a proposal decided once (even rejected) is not made again until one of
 * those skills changes.
 */
export function proposalJobId(scopeKey: string, p: CurationProposal): string {
  switch (p.kind) {
    case 'archive':
    case 'revive':
      return `curation/${scopeKey}/${p.kind}/${p.skillId}@${p.revisionId}`;
    case 'merge':
      return `curation/${scopeKey}/merge/${p.keep.skillId}@${p.keep.revisionId}+${p.absorb.skillId}@${p.absorb.revisionId}`;
  }
}

/** The revisions a proposal stores: one for archive and revive; for a merge, the kept skill's update (0) and the absorbed one's archive (1). */
export function proposalRevisionIds(scopeKey: string, p: CurationProposal): string[] {
  const jobId = proposalJobId(scopeKey, p);
  return p.kind === 'merge' ? [revisionIdFor(jobId, 0), revisionIdFor(jobId, 1)] : [revisionIdFor(jobId, 0)];
}

/** The skill ids a proposal touches (each gets at most one proposal per run). */
export function proposalSkills(p: CurationProposal): string[] {
  return p.kind === 'merge' ? [p.keep.skillId, p.absorb.skillId] : [p.skillId];
}

/** What a run read, in the shape storage returns it (storage/curation-reads.ts); core keeps no storage types. */
export interface CurationReadsLike {
  index?: { skills: readonly { skillId: string; name: string; description: string; revisionId: string; managed: boolean }[] };
  usage?: UsageSummary;
  pinned: readonly string[];
  revive: readonly { asked: string; skillId: string; pointer?: { deleted: boolean; revisionId: string; spec?: { name: string } } }[];
}

/** The plan from what a run read: the usage report over the window at `now`, and the live skills with their pins. */
export function planFromReads(
  scopeKey: string,
  reads: CurationReadsLike,
  opts: { now: number; settings: CurationSettings; pending: ReadonlySet<string>; requestedBy?: string },
): CurationPlan & { windowDays: number } {
  const liveEntries = reads.index?.skills ?? [];
  const offered = liveEntries.map((s) => ({ skillId: s.skillId, name: s.name, revisionId: s.revisionId }));
  const report = usageReport(reads.usage ?? emptyUsage(scopeKey), offered, { now: opts.now, windowMs: opts.settings.windowMs });
  const pinned = new Set(reads.pinned);
  const skills: LiveSkill[] = liveEntries.map((s) => ({ ...s, pinned: pinned.has(s.skillId) }));
  const revive: ReviveRequest[] = reads.revive.map((r) => {
    const tombstone = r.pointer?.deleted ? r.pointer : undefined;
    return {
      skillId: r.skillId,
      name: r.pointer?.spec?.name ?? r.asked,
      ...(tombstone ? { tombstoneRevisionId: tombstone.revisionId } : {}),
      hasContent: tombstone?.spec !== undefined,
      requestedBy: opts.requestedBy ?? 'an approver',
    };
  });
  return { ...planCuration({ report, skills, pending: opts.pending, revive, settings: opts.settings }), windowDays: report.windowDays };
}
