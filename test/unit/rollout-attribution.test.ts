import { describe, expect, it } from 'vitest';
import { applyUsage, cohortOf, emptyUsage, type OfferedSkill, type SessionUsage } from '../../core';

const canary = { revisionId: 'rev-cand', fraction: 0.3 };
const offered: OfferedSkill[] = [{ skillId: 'weather', name: 'weather', revisionId: 'rev-stable', canary }];
const session = (i: number, outcome: 'success' | 'fail'): SessionUsage => ({ jobId: `job-${i}`, sessionId: `session-${i}`, outcome, loads: [] });

describe('usage counters per canary cohort', () => {
  it('counts each session for the cohort its session id hashes to, the same function the repository used', () => {
    const sessions = Array.from({ length: 200 }, (_, i) => session(i, i % 3 === 0 ? 'fail' : 'success'));
    const { summary } = applyUsage(emptyUsage('global'), sessions, offered, '2026-12-05T09:00:00.000Z');
    const inCandidate = sessions.filter((s) => cohortOf(s.sessionId!, canary) === 'candidate');
    const tally = summary.skills[0]!.canary!;
    expect(tally).toMatchObject({ candidateRevisionId: 'rev-cand', stableRevisionId: 'rev-stable', since: '2026-12-05T09:00:00.000Z' });
    expect(tally.candidate.n).toBe(inCandidate.length);
    expect(tally.candidate.success).toBe(inCandidate.filter((s) => s.outcome === 'success').length);
    expect(tally.stable.n).toBe(200 - inCandidate.length);
    // Offered per revision follows the cohort too.
    const byRevision = Object.fromEntries(summary.skills[0]!.revisions.map((r) => [r.revisionId, r.offered]));
    expect(byRevision).toEqual({ 'rev-cand': inCandidate.length, 'rev-stable': 200 - inCandidate.length });
  });

  it('a load known only by name counts for the revision of the session cohort', () => {
    const i = Array.from({ length: 100 }, (_, k) => k).find((k) => cohortOf(`session-${k}`, canary) === 'candidate')!;
    const { summary } = applyUsage(emptyUsage('global'), [{ ...session(i, 'success'), loads: [{ name: 'weather' }] }], offered, '2026-12-05T09:00:00.000Z');
    expect(summary.skills[0]!.revisions.find((r) => r.revisionId === 'rev-cand')!.loaded).toBe(1);
  });

  it('starts a fresh tally when another candidate begins, and re-applying a burst counts nothing twice', () => {
    const first = applyUsage(emptyUsage('global'), [session(1, 'success')], offered, 't1').summary;
    expect(applyUsage(first, [session(1, 'success')], offered, 't2').applied).toBe(0);
    const next = applyUsage(first, [session(2, 'fail')], [{ ...offered[0]!, canary: { revisionId: 'rev-other', fraction: 0.3 } }], 't3').summary;
    expect(next.skills[0]!.canary).toMatchObject({ candidateRevisionId: 'rev-other', since: 't3' });
    expect(next.skills[0]!.canary!.candidate.n + next.skills[0]!.canary!.stable.n).toBe(1);
  });

  it('without a canary counts as before (no cohort tally)', () => {
    const { summary } = applyUsage(emptyUsage('global'), [session(1, 'success')], [{ skillId: 'weather', name: 'weather', revisionId: 'rev-stable' }], 't1');
    expect(summary.skills[0]!.canary).toBeUndefined();
  });
});
