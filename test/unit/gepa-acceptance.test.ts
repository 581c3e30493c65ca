import { describe, expect, it } from 'vitest';
import { judgeMinibatch, screenProposal, specFingerprint, type MinibatchRun } from '../../core/gepa';
import type { SkillSpec } from '../../core/schemas';

const ids = ['f1', 'f2', 'f3'];
const run = (scores: number[], seed = 77, caseIds = ids): MinibatchRun => ({ caseIds, seed, scores });

describe('strict minibatch acceptance', () => {
  it('accepts a strictly higher child total on the same cases and seed', () => {
    const v = judgeMinibatch(run([0.2, 0.3, 0.4]), run([0.2, 0.3, 0.5]));
    expect(v.accepted).toBe(true);
    expect(v.outcome).toBe('accepted');
    expect(v.parentTotal).toBeCloseTo(0.9);
    expect(v.childTotal).toBeCloseTo(1.0);
  });

  it('rejects an equal total as not better', () => {
    const v = judgeMinibatch(run([0.5, 0.5, 0.5]), run([1, 0.5, 0]));
    expect(v.accepted).toBe(false);
    expect(v.outcome).toBe('not_better');
    expect(v.reason).toMatch(/^not better: child minibatch total 1\.5000 does not exceed parent 1\.5000 on 3 feedback cases \(seed 77\)/);
  });

  it('rejects a lower total', () => {
    expect(judgeMinibatch(run([0.9, 0.9, 0.9]), run([0.9, 0.9, 0.8])).accepted).toBe(false);
  });

  it('refuses to compare runs on different cases or with different seeds', () => {
    expect(() => judgeMinibatch(run([1, 1, 1]), run([1, 1, 1], 78))).toThrow(/one seed/);
    expect(() => judgeMinibatch(run([1, 1, 1]), run([1, 1, 1], 77, ['f1', 'f3', 'f2']))).toThrow(/same cases/);
  });
});

describe('screening the reflector proposal', () => {
  const parent: SkillSpec = { name: 'w', description: 'd', when_to_use: 'u', steps: ['call the API'], pitfalls: [] };
  const pool = new Map([[specFingerprint(parent), 'c-parent']]);
  const screen = (answer: unknown, fingerprints = pool) => screenProposal({ parentSpec: parent, component: 'steps', answer, poolFingerprints: fingerprints });

  it('builds the child from the one component and fingerprints it', () => {
    const r = screen({ component: 'steps', new_value: ['call the API', ' retry with backoff '], rationale: 'timeouts' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.spec).toEqual({ ...parent, steps: ['call the API', 'retry with backoff'] });
    expect(r.fingerprint).toBe(specFingerprint(r.spec));
    expect(r.rationale).toBe('timeouts');
  });

  it('rejects invalid reflector output', () => {
    const r = screen({ component: 'steps', new_value: [], rationale: 'emptied' });
    expect(r).toMatchObject({ ok: false, outcome: 'invalid_reflection' });
    expect(!r.ok && r.reason).toMatch(/^invalid reflector output: .*at least one step/);
    expect(screen('not json')).toMatchObject({ ok: false, outcome: 'invalid_reflection', reason: 'invalid reflector output: the answer is not valid JSON' });
  });

  it('rejects an answer that leaves the component unchanged', () => {
    expect(screen({ component: 'steps', new_value: ['  call the API  ', ''], rationale: 'same' })).toEqual({
      ok: false,
      outcome: 'no_change',
      reason: 'no change: the reflector returned the current steps',
    });
  });

  it('rejects a child identical to a candidate already in the pool', () => {
    const existing: SkillSpec = { ...parent, steps: ['call the API', 'retry'] };
    const fingerprints = new Map([...pool, [specFingerprint(existing), 'c-old']]);
    expect(screen({ component: 'steps', new_value: ['call the API', 'retry'], rationale: 'r' }, fingerprints)).toEqual({
      ok: false,
      outcome: 'duplicate_candidate',
      reason: 'duplicate candidate: same content as candidate c-old',
    });
  });
});
