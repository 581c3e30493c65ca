import type { Revision } from '../core';
import { jobOutcomesPrefix, mapLimit, type SkillStore } from '../activities/storage';

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
}

export function metricsOf(revisions: readonly Revision[], droppedByReconciler = 0): GovernanceMetrics {
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
  };
}

export async function scopeMetrics(store: SkillStore, scopeKey: string): Promise<GovernanceMetrics> {
  const ids = await store.listSkillIds(scopeKey);
  const revisions = (await mapLimit(ids, 8, (id) => store.listRevisions(scopeKey, id))).flat();
  return metricsOf(revisions, await droppedCount(store, scopeKey));
}

async function droppedCount(store: SkillStore, scopeKey: string): Promise<number> {
  const keys = (await store.objects.list(jobOutcomesPrefix(scopeKey))).filter((k) => k.endsWith('.json'));
  const texts = await mapLimit(keys, 8, (k) => store.objects.getText(k));
  return texts.reduce((n, t) => {
    if (!t || t.notModified) return n;
    const outcome = JSON.parse(t.value) as { dropped?: unknown[] };
    return n + (outcome.dropped?.length ?? 0);
  }, 0);
}
