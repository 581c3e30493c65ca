import { describe, expect, it } from 'vitest';
import {
  confidenceSequence,
  cohortPosition,
  decideRollout,
  DEFAULT_ROLLOUT_SETTINGS,
  nextFloat,
  prngFromSeed,
  validateRolloutSettings,
  type PrngState,
  type RolloutSettings,
} from '../../core';

/** Cohort positions (SHA-256, as in production) of 8 candidate revisions' sessions, computed once: hashing dominates the simulation's time. */
const positions = new Map<number, number[]>();
function positionOf(seed: number, session: number): number {
  const revision = seed % 8;
  let p = positions.get(revision);
  if (!p) positions.set(revision, (p = []));
  return (p[session] ??= cohortPosition(`rev-candidate-${revision}`, `session-${session}`));
}

/**
 * Simulated rollouts: sessions arrive one by one, each in the candidate cohort by the hash
 * of its id, succeeding with its cohort's rate; the rollout looks after EVERY session (the
 * worst case for continuous monitoring) and stops at its first decision.
 */
function simulate(pStable: number, pCandidate: number, settings: RolloutSettings, seed: number, maxSessions: number) {
  let prng: PrngState = prngFromSeed(seed);
  const draw = () => {
    const r = nextFloat(prng);
    prng = r.state;
    return r.value;
  };
  const candidate = { judged: 0, success: 0 };
  const stable = { judged: 0, success: 0 };
  let stepIndex = 0;
  let candidateAtStepStart = 0;
  for (let i = 0; i < maxSessions; i++) {
    const cohort = positionOf(seed, i) < settings.steps[stepIndex]! ? 'candidate' : 'stable';
    const c = cohort === 'candidate' ? candidate : stable;
    c.judged++;
    if (draw() < (cohort === 'candidate' ? pCandidate : pStable)) c.success++;
    const d = decideRollout({ candidate, stable, stepIndex, candidateAtStepStart }, settings);
    if (d.kind === 'step') {
      stepIndex++;
      candidateAtStepStart = candidate.judged;
      continue;
    }
    if (d.kind !== 'wait') return { kind: d.kind, bySuperiority: d.kind === 'promote' && d.interval.lower > 0, candidate: candidate.judged, stable: stable.judged };
  }
  return { kind: 'expired' as const, bySuperiority: false, candidate: candidate.judged, stable: stable.judged };
}

const settings: RolloutSettings = { ...DEFAULT_ROLLOUT_SETTINGS, steps: [0.25, 0.5], minSamplePerCohort: 30, alpha: 0.05 };

describe('always-valid confidence sequence for a difference of success rates', () => {
  it('is undefined until both cohorts have a judged session, and centred on the observed difference', () => {
    expect(confidenceSequence({ judged: 0, success: 0 }, { judged: 5, success: 2 }, 0.05)).toBeUndefined();
    const ci = confidenceSequence({ judged: 100, success: 80 }, { judged: 100, success: 60 }, 0.05)!;
    expect(ci.estimate).toBeCloseTo(0.2);
    expect(ci.lower).toBeLessThan(0.2);
    expect(ci.upper).toBeGreaterThan(0.2);
    expect(ci.upper - 0.2).toBeCloseTo(0.2 - ci.lower);
  });

  it('narrows as sessions accumulate and widens as alpha shrinks', () => {
    const small = confidenceSequence({ judged: 50, success: 35 }, { judged: 50, success: 35 }, 0.05)!;
    const large = confidenceSequence({ judged: 5000, success: 3500 }, { judged: 5000, success: 3500 }, 0.05)!;
    const strict = confidenceSequence({ judged: 50, success: 35 }, { judged: 50, success: 35 }, 0.001)!;
    expect(large.upper - large.lower).toBeLessThan(small.upper - small.lower);
    expect(strict.upper - strict.lower).toBeGreaterThan(small.upper - small.lower);
  });

  it('rejects a bad alpha', () => {
    expect(() => confidenceSequence({ judged: 1, success: 1 }, { judged: 1, success: 1 }, 0)).toThrow(/alpha/);
  });
});

describe('rollout decisions', () => {
  it('decides nothing before both cohorts have the minimum sample, however clear the difference', () => {
    const d = decideRollout({ candidate: { judged: 29, success: 0 }, stable: { judged: 1000, success: 1000 }, stepIndex: 0, candidateAtStepStart: 0 }, settings);
    expect(d.kind).toBe('wait');
    expect(d.reason).toMatch(/minimum sample/);
  });

  it('rolls back a clearly worse candidate, promotes a clearly better one, steps up a not-worse one', () => {
    const obs = (c: number, s: number, n = 400) => ({
      candidate: { judged: n, success: Math.round(c * n) },
      stable: { judged: n, success: Math.round(s * n) },
      stepIndex: 0,
      candidateAtStepStart: 0,
    });
    expect(decideRollout(obs(0.5, 0.8), settings).kind).toBe('rollback');
    expect(decideRollout(obs(0.9, 0.6), settings).kind).toBe('promote');
    const step = decideRollout(obs(0.8, 0.8, 3000), settings);
    expect(step).toMatchObject({ kind: 'step', fraction: 0.5 });
    expect(decideRollout({ ...obs(0.8, 0.8, 3000), stepIndex: 1 }, settings).kind).toBe('promote');
    // Not worse, but the candidate has not gained the minimum sample at this step yet.
    expect(decideRollout({ ...obs(0.8, 0.8, 3000), candidateAtStepStart: 2990 }, settings).kind).toBe('wait');
  });

  it('validates settings', () => {
    expect(() => validateRolloutSettings({ ...settings, steps: [0.5, 0.25] })).toThrow(/ascending/);
    expect(() => validateRolloutSettings({ ...settings, steps: [1] })).toThrow(/fraction/);
    expect(() => validateRolloutSettings({ ...settings, minSamplePerCohort: 0 })).toThrow(/minimum sample/);
  });
});

describe('error rates by simulation (fixed seeds, a look after every session)', () => {
  const runs = 400;
  const horizon = 3000;

  it('under the null (equal success rates) makes a wrong decision (rollback or promotion by superiority) in at most alpha of rollouts', () => {
    let wrong = 0;
    for (let seed = 1; seed <= runs; seed++) {
      const r = simulate(0.7, 0.7, settings, seed, horizon);
      // Under the null, "worse" and "better" are both wrong; "not worse by more than the margin" is right.
      if (r.kind === 'rollback' || r.bySuperiority) wrong++;
    }
    // alpha = 0.05; the binomial sd of the observed rate over 400 runs is about 0.011.
    expect(wrong / runs).toBeLessThanOrEqual(0.05);
  });

  it('rolls back a candidate that is 10 points worse by itself in most runs, and never promotes it', () => {
    let rolledBack = 0;
    let promoted = 0;
    for (let seed = 1; seed <= runs / 4; seed++) {
      const r = simulate(0.8, 0.7, settings, 10_000 + seed, horizon);
      if (r.kind === 'rollback') rolledBack++;
      if (r.kind === 'promote') promoted++;
    }
    expect(promoted).toBe(0);
    expect(rolledBack / (runs / 4)).toBeGreaterThan(0.8);
  });

  it('promotes a candidate that is 15 points better in most runs, and never rolls it back', () => {
    let promoted = 0;
    let rolledBack = 0;
    for (let seed = 1; seed <= runs / 4; seed++) {
      const r = simulate(0.6, 0.75, settings, 20_000 + seed, horizon);
      if (r.kind === 'promote') promoted++;
      if (r.kind === 'rollback') rolledBack++;
    }
    expect(rolledBack).toBe(0);
    expect(promoted / (runs / 4)).toBeGreaterThan(0.8);
  });
});
