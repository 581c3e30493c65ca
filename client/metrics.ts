import type { Revision } from '../core';
import { jobOutcomesPrefix, mapLimit, type SkillStore } from '../storage';
import { certificationChecks, evidenceStale } from './recertification';

/** Governance counters of one scope, derived from the stored revisions (the source of truth). */
export interface GovernanceMetrics {
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
  /** Active optimized revisions whose evidence re-certification found stale or regressed (evaluator or model changed). */
  evidenceStale: number;
}

export function metricsOf(revisions: readonly Revision[], droppedByReconciler = 0, deltasQuarantined = 0, evidenceStale = 0): GovernanceMetrics {
  const failed = (r: Revision, gate: 'spec' | 'safety') => r.gates.some((g) => g.gate === gate && g.ran && !g.passed);
  const count = (p: (r: Revision) => boolean) => revisions.filter(p).length;
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
    evidenceStale,
  };
}

export async function scopeMetrics(store: SkillStore, scopeKey: string): Promise<GovernanceMetrics> {
  const ids = await store.listSkillIds(scopeKey);
  const revisions = (await mapLimit(ids, 8, (id) => store.listRevisions(scopeKey, id))).flat();
  const jobs = await jobCounts(store, scopeKey);
  return metricsOf(revisions, jobs.dropped, jobs.quarantined, await staleEvidence(store, scopeKey));
}

/** Re-certification checks of the scope that found stale evidence on a revision still active. */
async function staleEvidence(store: SkillStore, scopeKey: string): Promise<number> {
  const stale = (await certificationChecks(store, scopeKey)).filter(evidenceStale);
  const active = await mapLimit(stale, 8, async (c) => (await store.readActive(scopeKey, c.skillId))?.pointer.revisionId === c.revisionId);
  return active.filter(Boolean).length;
}

/** From the stored job outcomes: candidates the reconciler dropped, deltas quarantined. */
async function jobCounts(store: SkillStore, scopeKey: string): Promise<{ dropped: number; quarantined: number }> {
  const keys = (await store.objects.list(jobOutcomesPrefix(scopeKey))).filter((k) => k.endsWith('.json'));
  const texts = await mapLimit(keys, 8, (k) => store.objects.getText(k));
  const counts = { dropped: 0, quarantined: 0 };
  for (const t of texts) {
    if (!t || t.notModified) continue;
    const outcome = JSON.parse(t.value) as { dropped?: unknown[]; status?: string };
    counts.dropped += outcome.dropped?.length ?? 0;
    if (outcome.status === 'quarantined') counts.quarantined++;
  }
  return counts;
}
