import { countRevisions, type GovernanceCounts } from '../core/governance/counters';
import type { Revision, UsageSummary } from '../core';
import { jobOutcomesPrefix, legacyJobOutcomesPrefix, mapLimit, type SkillStore } from '../storage';
import { certificationChecks, evidenceStale } from './recertification';

/** Governance counters of one scope (core/governance/counters.ts), with re-certification's finding. */
export interface GovernanceMetrics extends GovernanceCounts {
  /** Active optimized revisions whose evidence re-certification found stale or regressed (evaluator or model changed). */
  evidenceStale: number;
}

export function metricsOf(revisions: readonly Revision[], droppedByReconciler = 0, deltasQuarantined = 0, evidenceStale = 0): GovernanceMetrics {
  return { ...countRevisions(revisions, droppedByReconciler, deltasQuarantined), evidenceStale };
}

/**
 * The scope's counters as its usage workflow keeps them (one GET of the usage summary,
 * whatever the scope's history; they follow a job or a decision within one burst of that
 * workflow), and the stale-evidence count of re-certification's checks. A scope whose
 * counters were never written (no governance write since they exist) counts zero.
 */
export async function scopeMetrics(store: SkillStore, scopeKey: string): Promise<GovernanceMetrics> {
  const [usage, stale] = await Promise.all([store.readUsage(scopeKey), staleEvidence(store, scopeKey)]);
  return governanceMetricsOf(usage?.summary, stale);
}

/** The counters of a usage summary read already. */
export function governanceMetricsOf(summary: Pick<UsageSummary, 'governance'> | undefined, evidenceStale: number): GovernanceMetrics {
  return { ...countRevisions([]), ...summary?.governance?.counts, evidenceStale };
}

/**
 * The same counters recounted from every stored revision and job outcome: a scan whose cost
 * grows with the scope's history (thousands of requests at 10,000 revisions). For audits of
 * the incremental counters, never for a page or a poll.
 */
export async function recountScopeMetrics(store: SkillStore, scopeKey: string): Promise<GovernanceMetrics> {
  const ids = await store.listSkillIds(scopeKey);
  const revisions = (await mapLimit(ids, 8, (id) => store.listRevisions(scopeKey, id))).flat();
  const jobs = await jobCounts(store, scopeKey);
  return metricsOf(revisions, jobs.dropped, jobs.quarantined, await staleEvidence(store, scopeKey));
}

/** Re-certification checks of the scope that found stale evidence on a revision still active. */
export async function staleEvidence(store: SkillStore, scopeKey: string): Promise<number> {
  const stale = (await certificationChecks(store, scopeKey)).filter(evidenceStale);
  const active = await mapLimit(stale, 8, async (c) => (await store.readActive(scopeKey, c.skillId))?.pointer.revisionId === c.revisionId);
  return active.filter(Boolean).length;
}

/**
 * From the stored job outcomes: candidates the reconciler dropped, deltas quarantined. A
 * scope's outcomes share a prefix with those of the rare scope whose key hashes alike (each
 * names its scope); older ones lie beside their scope. A job stored both ways (re-run after
 * the move) counts once, as its newer outcome says.
 */
async function jobCounts(store: SkillStore, scopeKey: string): Promise<{ dropped: number; quarantined: number }> {
  const [current, legacy] = await Promise.all([store.objects.list(jobOutcomesPrefix(scopeKey)), store.objects.list(legacyJobOutcomesPrefix(scopeKey))]);
  const keys = [...legacy, ...current].filter((k) => k.endsWith('.json'));
  const texts = await mapLimit(keys, 8, (k) => store.objects.getText(k));
  const byJob = new Map<string, { dropped?: unknown[]; status?: string }>();
  for (const t of texts) {
    if (!t || t.notModified) continue;
    const outcome = JSON.parse(t.value) as { jobId?: string; scopeKey?: string; dropped?: unknown[]; status?: string };
    if (outcome.scopeKey === scopeKey && outcome.jobId) byJob.set(outcome.jobId, outcome); // the current prefix's come last
  }
  const counts = { dropped: 0, quarantined: 0 };
  for (const outcome of byJob.values()) {
    counts.dropped += outcome.dropped?.length ?? 0;
    if (outcome.status === 'quarantined') counts.quarantined++;
  }
  return counts;
}
