import { describe, expect, it } from 'vitest';
import { cohortOf, cohortPosition } from '../../core/rollout';

describe('canary cohort by hash of the session id', () => {
  it('is deterministic: the same session and candidate always land in the same cohort', () => {
    const canary = { revisionId: 'rev-candidate-1', fraction: 0.3 };
    for (let i = 0; i < 200; i++) expect(cohortOf(`session-${i}`, canary)).toBe(cohortOf(`session-${i}`, { ...canary }));
    expect(cohortPosition('rev-candidate-1', 'session-7')).toBe(cohortPosition('rev-candidate-1', 'session-7'));
  });

  it.each([0.05, 0.25, 0.5])('puts a fraction %f of sessions in the candidate cohort, within tolerance', (fraction) => {
    const n = 20_000;
    let inCandidate = 0;
    for (let i = 0; i < n; i++) if (cohortOf(`sess-${i}`, { revisionId: 'rev-x', fraction }) === 'candidate') inCandidate++;
    // Binomial sd at n=20,000 is at most 0.0035: 4 sd.
    expect(Math.abs(inCandidate / n - fraction)).toBeLessThan(0.014);
  });

  it('keeps a candidate-cohort session in the candidate cohort when the fraction steps up', () => {
    for (let i = 0; i < 2_000; i++) {
      const s = `s${i}`;
      if (cohortOf(s, { revisionId: 'r', fraction: 0.05 }) === 'candidate') expect(cohortOf(s, { revisionId: 'r', fraction: 0.25 })).toBe('candidate');
    }
  });

  it('draws an independent cohort per candidate revision', () => {
    let both = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++)
      if (cohortOf(`s${i}`, { revisionId: 'a', fraction: 0.5 }) === 'candidate' && cohortOf(`s${i}`, { revisionId: 'b', fraction: 0.5 }) === 'candidate') both++;
    expect(Math.abs(both / n - 0.25)).toBeLessThan(0.015);
  });

  it('never puts a session in the candidate cohort at fraction 0, always at 1', () => {
    for (let i = 0; i < 500; i++) {
      expect(cohortOf(`s${i}`, { revisionId: 'r', fraction: 0 })).toBe('stable');
      expect(cohortOf(`s${i}`, { revisionId: 'r', fraction: 1 })).toBe('candidate');
    }
  });
});
