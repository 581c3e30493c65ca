import { describe, expect, it } from 'vitest';
import { describedVersions, evidenceStale, judgeRecertification, sameVersions, staleCheck, type CertifiedRevision } from '../../core/gepa/recertification';

const revision: CertifiedRevision = {
  scopeKey: 'apps/a',
  skillId: 'weather',
  revisionId: 'rev-2',
  parentRevisionId: 'rev-1',
  datasetId: 'd',
  datasetVersion: 'v1',
  evaluatorTaskQueue: 'eval',
  certified: { evaluatorVersion: 'e1', modelVersion: 'm1' },
  holdoutSeed: 3,
  minHoldoutImprovement: 0.1,
};
const now = { evaluatorVersion: 'e2', modelVersion: 'm1' };

describe('re-certification verdicts', () => {
  it('reads versions from a describe answer and compares them (an absent model version equals null)', () => {
    expect(describedVersions({ evaluatorVersion: 'e', modelVersion: null })).toEqual({ evaluatorVersion: 'e' });
    expect(describedVersions({ evaluatorVersion: '' })).toBeUndefined();
    expect(describedVersions('e1')).toBeUndefined();
    expect(sameVersions({ evaluatorVersion: 'e' }, { evaluatorVersion: 'e' })).toBe(true);
    expect(sameVersions(revision.certified, now)).toBe(false);
  });

  it('recertified when the improvement holds by the certified margin', () => {
    const c = judgeRecertification(revision, now, { baseline: [0.2, 0.4], candidate: [0.6, 0.8] }, 't');
    expect(c).toMatchObject({ verdict: 'recertified', baselineHoldoutScore: 0.30000000000000004, candidateHoldoutScore: 0.7, caseCount: 2 });
    expect(c.reason).toContain('evaluator changed from e1/m1 to e2/m1');
    expect(evidenceStale(c)).toBe(false);
  });

  it('stale when the improvement is below the margin; regressed (rollback to the parent proposed) when below the parent', () => {
    const stale = judgeRecertification(revision, now, { baseline: [0.5], candidate: [0.55] }, 't');
    expect(stale.verdict).toBe('stale');
    expect(stale.proposedRollbackTo).toBeUndefined();
    const regressed = judgeRecertification(revision, now, { baseline: [0.5], candidate: [0.3] }, 't');
    expect(regressed).toMatchObject({ verdict: 'regressed', proposedRollbackTo: 'rev-1' });
    expect(evidenceStale(stale) && evidenceStale(regressed)).toBe(true);
    expect(staleCheck(revision, 'gone', 't')).toMatchObject({ verdict: 'stale', reason: 'gone' });
  });
});
