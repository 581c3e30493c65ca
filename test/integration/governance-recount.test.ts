import { beforeAll, describe, expect, it } from 'vitest';
import { recountScopeMetrics } from '../../client/metrics';
import { scopeKey as scopeKeyOf } from '../../core';
import type { JobOutcome } from '../../core/governance';
import { createSkillStore, legacyJobOutcomeKey, type SkillStore } from '../../storage';
import { realServices, uniqueName } from '../support/infra';
import { reviewedOutcomeBefore } from '../support/job-outcome';

let store: SkillStore;

beforeAll(async () => {
  store = createSkillStore((await realServices(['s3'])).s3);
});

describe('the recount of a scope’s governance counters', () => {
  it('reads job outcomes at their job tags and beside the scope (stored before), and counts a job stored both ways once', async () => {
    const scopeKey = scopeKeyOf({ mode: 'app', app: uniqueName('recount') });
    const outcome = (segment: string, over: Partial<JobOutcome>) => reviewedOutcomeBefore(`learning/${scopeKey}/s1/${segment}`, scopeKey, over);
    const dropped = (name: string) => ({ name, list: 'creates' as const, reason: 'duplicate' });
    const at = '2026-12-07T10:00:00.000Z';
    // Stored before the move only.
    const old = outcome('seg-1', { dropped: [dropped('a'), dropped('b')] });
    await store.objects.put(legacyJobOutcomeKey(scopeKey, old.jobId), { ...old, recordedAt: at });
    // Re-run after the move: stored both ways; the newer outcome counts.
    const rerun = outcome('seg-2', { status: 'quarantined', dropped: [dropped('c')] });
    await store.objects.put(legacyJobOutcomeKey(scopeKey, rerun.jobId), { ...rerun, recordedAt: at });
    await store.writeJobOutcome({ ...rerun, status: 'reviewed', dropped: [dropped('d'), dropped('e')] }, at);
    // Stored after the move only.
    await store.writeJobOutcome(outcome('seg-3', { status: 'quarantined' }), at);

    expect(await recountScopeMetrics(store, scopeKey)).toMatchObject({ droppedByReconciler: 4, deltasQuarantined: 1 });
  });
});
