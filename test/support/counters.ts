import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { recountScopeMetrics, scopeMetrics, type GovernanceMetrics } from '../../client/metrics';
import type { AuditEvent } from '../../core';
import type { SkillStore } from '../../storage';

/**
 * The scope's governance counters once its usage workflow has counted what was written: they
 * follow a job or a decision by one burst of that workflow, so this waits (polling the
 * summary) until they equal the recount from every stored revision and job outcome (the
 * source of truth), and fails with both when they never do.
 */
export async function settledMetrics(store: SkillStore, scopeKey: string, timeoutMs = 120_000): Promise<GovernanceMetrics> {
  const truth = await recountScopeMetrics(store, scopeKey);
  let kept = await scopeMetrics(store, scopeKey);
  for (const deadline = Date.now() + timeoutMs; !isDeepStrictEqual(kept, truth) && Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 200));
    kept = await scopeMetrics(store, scopeKey);
  }
  expect(kept, 'the counters kept by the scope usage workflow, against a recount of the stored revisions and job outcomes').toEqual(truth);
  return kept;
}

/** The scope's recent audit page (what Activity shows) once it holds an entry `wanted` matches: it follows the write by one burst of the scope's usage workflow. */
export async function recentEventCounted(store: SkillStore, scopeKey: string, wanted: (e: AuditEvent) => boolean, timeoutMs = 120_000): Promise<AuditEvent> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const found = (await store.readUsage(scopeKey))?.summary.recentEvents?.find(wanted);
    if (found) return found;
    if (Date.now() >= deadline) throw new Error(`the recent audit page of ${scopeKey} never showed the expected entry within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
