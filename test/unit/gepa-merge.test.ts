import { describe, expect, it } from 'vitest';
import {
  admitMerge,
  admitSeed,
  ancestorsOf,
  combineComponents,
  desirableComponents,
  initSearchState,
  judgeMerge,
  mergeSubsample,
  planMerge,
  proposeMerge,
  prngFromSeed,
  recordMergeSubsample,
  rejectMerge,
  specFingerprint,
  withTracking,
  type CandidateRecord,
  type GepaSearchState,
  type MergeCandidate,
} from '../../core/gepa';
import { GepaOptionsSchema, type SkillSpec } from '../../core/schemas';

const base: SkillSpec = { name: 'w', description: 'Reports the weather.', when_to_use: 'When asked.', steps: ['Call the API.'], pitfalls: [] };
const withSteps: SkillSpec = { ...base, steps: ['Geocode first.', 'Call the API.'] };
const withPitfalls: SkillSpec = { ...base, pitfalls: ['Mark missing fields unavailable.'] };

function candidate(id: string, spec: SkillSpec, scores: number[], parentId?: string): MergeCandidate {
  return { id, spec, fingerprint: specFingerprint(spec), parentId, validationScores: scores, validationMean: scores.reduce((a, b) => a + b, 0) / scores.length };
}
const seed = candidate('s', base, [0.2, 0.2, 0.2, 0.2, 0.2, 0.2]);
const a = candidate('a', withSteps, [0.8, 0.8, 0.8, 0.2, 0.2, 0.2], 's');
const b = candidate('b', withPitfalls, [0.2, 0.2, 0.2, 0.7, 0.7, 0.5], 's');

describe('merge: pairs, combination, subsample, verdict', () => {
  it('finds ancestors through reflective parents and merges', () => {
    const m: MergeCandidate = { ...candidate('m', base, [0]), mergedFrom: ['a', 'b'], parentId: 'a' };
    const byId = new Map([seed, a, b, m].map((c) => [c.id, c]));
    expect([...ancestorsOf('m', byId)].sort()).toEqual(['a', 'b', 's']);
    expect([...ancestorsOf('s', byId)]).toEqual([]);
  });

  it('takes each component from the side that changed it; both changed → the higher mean', () => {
    expect(desirableComponents(base, withSteps, withPitfalls)).toEqual(['steps', 'pitfalls']);
    const merged = combineComponents(seed, a, b, prngFromSeed(1));
    expect(merged.spec).toEqual({ ...base, steps: withSteps.steps, pitfalls: withPitfalls.pitfalls });
    expect(merged.componentSources).toEqual({ steps: 'a', pitfalls: 'b', when_to_use: 'a', description: 'a' });
    const bothChanged = candidate('b2', { ...withPitfalls, steps: ['Retry with backoff.'] }, [0.9, 0.9, 0.9, 0.9, 0.9, 0.9], 's');
    expect(combineComponents(seed, a, bothChanged, prngFromSeed(1)).spec.steps).toEqual(['Retry with backoff.']);
  });

  it('draws the subsample across the cases each parent wins and the ties', () => {
    const { positions } = mergeSubsample(a.validationScores, b.validationScores, 5, prngFromSeed(3));
    expect(positions).toHaveLength(5);
    expect(new Set(positions).size).toBe(5);
    expect(positions.filter((i) => i < 3).length).toBeGreaterThanOrEqual(2); // a stronger on 0-2
    expect(positions.filter((i) => i >= 3).length).toBeGreaterThanOrEqual(2); // b stronger on 3-5
    expect(mergeSubsample([1, 1], [0, 0], 5, prngFromSeed(3)).positions).toEqual([0, 1]); // never more than |V|
  });

  it('proposes a merge of two frontier siblings, deterministically, and never the same triplet twice', () => {
    const input = { candidates: [seed, a, b], frontierIds: ['a', 'b'], tried: [], subsampleSize: 4, prng: prngFromSeed(9) };
    const first = proposeMerge(input);
    expect(first.proposal).toMatchObject({ parentIds: ['a', 'b'], ancestorId: 's', spec: { steps: withSteps.steps, pitfalls: withPitfalls.pitfalls } });
    expect(first.proposal!.parentTotals).toEqual(
      first.proposal!.subsample.map((i) => [a.validationScores[i], b.validationScores[i]]).reduce(([x, y], [p, q]) => [x + p, y + q], [0, 0]),
    );
    expect(proposeMerge(input)).toEqual(first);
    expect(proposeMerge({ ...input, tried: first.tried }).proposal).toBeUndefined();
    // One an ancestor of the other, or a pool too small: nothing to merge.
    const child = candidate('c', { ...withSteps, pitfalls: ['x'] }, [1, 1, 1, 1, 1, 1], 'a');
    expect(proposeMerge({ ...input, candidates: [seed, a, child], frontierIds: ['a', 'c'] }).proposal).toBeUndefined();
    expect(proposeMerge({ ...input, candidates: [seed, a], frontierIds: ['s', 'a'] }).proposal).toBeUndefined();
    // An ancestor better than a parent does not qualify.
    expect(proposeMerge({ ...input, candidates: [{ ...seed, validationMean: 0.9 }, a, b] }).proposal).toBeUndefined();
  });

  it('accepts only a total strictly above the better parent on the subsample', () => {
    const proposal = { parentIds: ['a', 'b'] as [string, string], parentTotals: [1.6, 1.4] as [number, number], subsample: [0, 3] };
    expect(judgeMerge(proposal, [0.8, 0.8])).toMatchObject({ accepted: false, parentTotal: 1.6, childTotal: 1.6 });
    expect(judgeMerge(proposal, [0.8, 0.8]).reason).toBe('merge not better: total 1.6000 does not exceed better parent a 1.6000 on 2 validation cases');
    expect(judgeMerge(proposal, [0.8, 0.9])).toMatchObject({ accepted: true, reason: 'accepted merge: total 1.7000 > better parent a 1.6000 on 2 validation cases' });
  });
});

describe('merge step over the search state', () => {
  const ids = (p: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${p}${i}`, input: 0, critical: false }));
  const evals = (caseIds: string[], score: (id: string) => number) => caseIds.map((caseId) => ({ caseId, score: score(caseId) }));

  function poolState(): GepaSearchState {
    const init = initSearchState({
      experimentId: 'e',
      options: GepaOptionsSchema.parse({ maxIterations: 20, maxMetricCalls: 10_000, randomSeed: 4 }),
      dataset: { feedback: ids('f', 6), validation: ids('v', 6), holdout: [] },
    });
    const seeded = admitSeed(
      withTracking(init, { plan: { proposalsPossible: 20 }, merge: true }),
      base,
      evals(init.validationCaseIds, () => 0.2),
    );
    const rec = ({ mergedFrom: _m, ...c }: MergeCandidate, iteration: number): CandidateRecord => ({
      ...c,
      spec: c.spec,
      validationScores: [...c.validationScores],
      componentCursor: 1,
      iteration,
      parentId: seeded.candidates[0].id,
    });
    return { ...seeded, iteration: 2, candidates: [seeded.candidates[0], rec(a, 0), rec(b, 1)], merge: { due: 1, tested: 0, accepted: 0, lastIterationFoundNew: true, tried: [] } };
  }

  it('plans a due merge, evaluates it on the subsample then the rest, and admits it with its lineage', () => {
    const s = poolState();
    const { state, plan } = planMerge(s, { frontier: { type: 'instance', objectives: [] }, subsampleSize: 4 });
    expect(plan).toBeDefined();
    expect(state.merge).toMatchObject({ due: 0, tested: 1, lastIterationFoundNew: false });
    expect(plan!.subsampleCaseIds).toHaveLength(4);
    expect([...plan!.subsampleCaseIds, ...plan!.restCaseIds].sort()).toEqual(s.validationCaseIds);
    expect(plan!.seed).toBe(s.validationSeed);

    const sub = recordMergeSubsample(
      state,
      plan!,
      evals(plan!.subsampleCaseIds, () => 0.9),
      { charge: 3, cacheHits: 1 },
    );
    expect(sub.state.budget.used).toBe(state.budget.used + 3);
    expect(sub.state.cacheHits).toBe(1);
    const verdict = judgeMerge(plan!.proposal, sub.scores);
    expect(verdict.accepted).toBe(true);
    const admitted = admitMerge(
      sub.state,
      plan!,
      verdict,
      sub.scores,
      evals(plan!.restCaseIds, () => 0.85),
    );
    const merged = admitted.candidates.at(-1)!;
    expect(merged).toMatchObject({ id: plan!.childId, parentId: 'a', mergedFrom: ['a', 'b'], ancestorId: s.candidates[0].id, iteration: 2 });
    expect(merged.validationScores).toEqual(s.validationCaseIds.map((id) => (plan!.subsampleCaseIds.includes(id) ? 0.9 : 0.85)));
    expect(admitted.iteration).toBe(3);
    expect(admitted.merge).toMatchObject({ accepted: 1, tested: 1 });
    expect(admitted.log.at(-1)).toMatchObject({ iteration: 2, kind: 'merge', mergeParentIds: ['a', 'b'], accepted: true, outcome: 'accepted', cacheHits: 1 });
    expect(admitted.budget.used).toBe(state.budget.used + 3 + plan!.restCaseIds.length);
  });

  it('logs a rejected merge and does nothing when no merge is due', () => {
    const s = poolState();
    const { state, plan } = planMerge(s, { frontier: { type: 'instance', objectives: [] }, subsampleSize: 4 });
    const sub = recordMergeSubsample(
      state,
      plan!,
      evals(plan!.subsampleCaseIds, () => 0),
    );
    const verdict = judgeMerge(plan!.proposal, sub.scores);
    const rejected = rejectMerge(sub.state, plan!, {
      outcome: 'not_better',
      reason: verdict.reason,
      parentMinibatchTotal: verdict.parentTotal,
      childMinibatchTotal: verdict.childTotal,
    });
    expect(rejected.candidates).toHaveLength(3);
    expect(rejected.log.at(-1)).toMatchObject({ kind: 'merge', accepted: false, outcome: 'not_better', childId: plan!.childId });
    const notDue = { ...s, merge: { ...s.merge!, lastIterationFoundNew: false } };
    expect(planMerge(notDue, { frontier: { type: 'instance', objectives: [] }, subsampleSize: 4 })).toEqual({ state: notDue });
  });
});
