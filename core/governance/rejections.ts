import type { Revision } from '../schemas/revision';
import { redactSecrets } from '../skills/redaction';

/**
 * A change an approver rejected, as the reviewer and the GEPA reflector are shown it: what
 * was proposed, and why it was refused, so the same change is not proposed again.
 */
export interface RejectionNote {
  revisionId: string;
  skillId: string;
  name: string;
  action: string;
  source: string;
  rejectedAt: string;
  reviewer: string;
  comment: string;
  /** The proposed skill, abridged (description and the first steps and pitfalls). */
  proposed?: { description: string; steps: string[]; pitfalls: string[] };
}

/** Newest first; a scope keeps this many (older ones drop off). */
export const MAX_REJECTIONS_PER_SCOPE = 50;
/** At most this many are put in one prompt. */
export const MAX_REJECTIONS_SHOWN = 8;
const MAX_ITEMS = 6;
const MAX_TEXT = 300;

/** Redacted (approvers' comments reach a model and storage) and bounded. */
const clip = (raw: string) => {
  const text = redactSecrets(raw);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
};

/** The note of a revision an approver rejected, with their comment. */
export function rejectionNote(revision: Revision, decision: { reviewer: string; comment: string; at: string }): RejectionNote {
  const spec = revision.spec;
  return {
    revisionId: revision.id,
    skillId: revision.skillId,
    name: spec?.name ?? revision.skillId,
    action: revision.action,
    source: revision.source,
    rejectedAt: decision.at,
    reviewer: decision.reviewer,
    comment: clip(decision.comment),
    ...(spec ? { proposed: { description: clip(spec.description), steps: spec.steps.slice(0, MAX_ITEMS).map(clip), pitfalls: spec.pitfalls.slice(0, MAX_ITEMS).map(clip) } } : {}),
  };
}

/** Adds a note (once per revision: a retried rejection changes nothing), newest first, bounded. */
export function addRejection(notes: readonly RejectionNote[], note: RejectionNote): { notes: RejectionNote[]; changed: boolean } {
  if (notes.some((n) => n.revisionId === note.revisionId)) return { notes: [...notes], changed: false };
  return { notes: [note, ...notes].slice(0, MAX_REJECTIONS_PER_SCOPE), changed: true };
}

/**
 * The rejections a reviewer about to change these skills should see: those of the skills
 * (by id or name, case-insensitive), then rejected creates of skills that do not exist
 * (a reviewer may propose them again), newest first, at most MAX_REJECTIONS_SHOWN.
 */
export function rejectionsFor(notes: readonly RejectionNote[], skills: readonly { skillId?: string; name: string }[], max = MAX_REJECTIONS_SHOWN): RejectionNote[] {
  const ids = new Set(skills.flatMap((s) => (s.skillId ? [s.skillId] : [])));
  const names = new Set(skills.map((s) => s.name.toLowerCase()));
  const about = (n: RejectionNote) => ids.has(n.skillId) || names.has(n.name.toLowerCase());
  const ofSkills = notes.filter(about);
  const creates = notes.filter((n) => !about(n) && n.action === 'create');
  return [...ofSkills, ...creates].slice(0, max);
}

/** The rejections of one skill (the GEPA reflector's: candidates of its skill that approvers refused). */
export function rejectionsOfSkill(notes: readonly RejectionNote[], skillId: string, max = MAX_REJECTIONS_SHOWN): RejectionNote[] {
  return notes.filter((n) => n.skillId === skillId).slice(0, max);
}
