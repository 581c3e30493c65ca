import type { Revision } from '../schemas/revision';
import type { JobOutcome } from './types';

/**
 * A scope's governance counters, kept incrementally: each revision written, each decision
 * and each job outcome adds its part once (by record id), so reading them is one small
 * object whatever the scope's history. Equal to `countRevisions` over every revision of
 * the scope plus what the job outcomes add (dropped candidates, quarantined deltas).
 */
export interface GovernanceCounts {
  candidatesSeen: number;
  revisionsWritten: number;
  promoted: number;
  specRejected: number;
  safetyRejected: number;
  effectivenessHeld: number;
  humanHeld: number;
  humanApproved: number;
  humanRejected: number;
  shadowBypassed: number;
  droppedByReconciler: number;
  /** Poison deltas stepped over after repeated failed reviews (job outcomes `quarantined`). */
  deltasQuarantined: number;
}

export const GOVERNANCE_COUNTER_NAMES = [
  'candidatesSeen',
  'revisionsWritten',
  'promoted',
  'specRejected',
  'safetyRejected',
  'effectivenessHeld',
  'humanHeld',
  'humanApproved',
  'humanRejected',
  'shadowBypassed',
  'droppedByReconciler',
  'deltasQuarantined',
] as const satisfies readonly (keyof GovernanceCounts)[];

export function emptyCounts(): GovernanceCounts {
  return Object.fromEntries(GOVERNANCE_COUNTER_NAMES.map((n) => [n, 0])) as unknown as GovernanceCounts;
}

type Countable = Pick<Revision, 'gates' | 'human' | 'history' | 'shadowBypassed'>;

/** What revisions in their current state count (the definition the incremental counters follow). */
export function countRevisions(revisions: readonly Countable[], droppedByReconciler = 0, deltasQuarantined = 0): GovernanceCounts {
  const failed = (r: Countable, gate: 'spec' | 'safety') => r.gates.some((g) => g.gate === gate && g.ran && !g.passed);
  const count = (p: (r: Countable) => boolean) => revisions.filter(p).length;
  return {
    candidatesSeen: revisions.length + droppedByReconciler,
    revisionsWritten: revisions.length,
    promoted: count((r) => r.history.some((h) => h.to === 'active')),
    specRejected: count((r) => failed(r, 'spec')),
    safetyRejected: count((r) => failed(r, 'safety')),
    effectivenessHeld: count((r) => r.gates.some((g) => g.gate === 'effectiveness' && g.held)),
    humanHeld: count((r) => r.human?.held === true),
    humanApproved: count((r) => r.human?.decision === 'approved'),
    humanRejected: count((r) => r.human?.decision === 'rejected'),
    shadowBypassed: count((r) => r.shadowBypassed),
    droppedByReconciler,
    deltasQuarantined,
  };
}

/** `after` minus `before`, only the counters that changed. */
export function countsDelta(after: GovernanceCounts, before: GovernanceCounts): Partial<GovernanceCounts> {
  const delta: Partial<GovernanceCounts> = {};
  for (const n of GOVERNANCE_COUNTER_NAMES) if (after[n] !== before[n]) delta[n] = after[n] - before[n];
  return delta;
}

export function addCounts(counts: GovernanceCounts, delta: Partial<GovernanceCounts>): GovernanceCounts {
  const sum = { ...counts };
  for (const n of GOVERNANCE_COUNTER_NAMES) sum[n] += delta[n] ?? 0;
  return sum;
}

/**
 * A status transition's part: the revision after it, against the same revision without this
 * transition's history entry and without what it patched (`patched`: a human decision, or
 * gates and the shadow flag, which a revision gets once).
 */
export function transitionDelta(
  after: Countable,
  transition: { to: string; at: string; reason: string },
  patched: readonly ('human' | 'gates' | 'shadowBypassed')[],
): Partial<GovernanceCounts> {
  const entry = after.history.findIndex((h) => h.to === transition.to && h.at === transition.at && h.reason === transition.reason);
  const before: Countable = {
    gates: patched.includes('gates') ? [] : after.gates,
    shadowBypassed: patched.includes('shadowBypassed') ? false : after.shadowBypassed,
    history: entry < 0 ? after.history : after.history.filter((_, i) => i !== entry),
    ...(patched.includes('human') ? (after.human ? { human: { ...after.human, decision: undefined } } : {}) : after.human ? { human: after.human } : {}),
  };
  return countsDelta(countRevisions([after]), countRevisions([before]));
}

/** A job outcome's part: its dropped candidates, and a quarantined delta. */
export function jobOutcomeDelta(outcome: Pick<JobOutcome, 'dropped' | 'status'>): Partial<GovernanceCounts> {
  const delta: Partial<GovernanceCounts> = {};
  if (outcome.dropped.length) {
    delta.droppedByReconciler = outcome.dropped.length;
    delta.candidatesSeen = outcome.dropped.length;
  }
  if (outcome.status === 'quarantined') delta.deltasQuarantined = 1;
  return delta;
}
