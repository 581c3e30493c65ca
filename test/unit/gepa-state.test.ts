import { describe, expect, it } from 'vitest';
import {
  admitChild,
  admitSeed,
  alignEvaluations,
  EvaluationContractError,
  failedResult,
  initSearchState,
  judgeMinibatch,
  LOG_TAIL_LIMIT,
  planIteration,
  recordMinibatch,
  rejectIteration,
  specFingerprint,
  type GepaSearchState,
} from '../../core/gepa';
import { ExperimentResultSchema, GepaOptionsSchema, type SkillSpec } from '../../core/schemas';

const cases = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}`, input: i, critical: false }));
const dataset = { feedback: cases('f', 5), validation: cases('v', 3), holdout: cases('h', 2) };
const seedSpec: SkillSpec = { name: 's', description: 'd', when_to_use: 'w', steps: ['one'], pitfalls: [] };
const evals = (ids: string[], score: number) => ids.map((caseId) => ({ caseId, score }));
const feedbackIds = dataset.feedback.map((c) => c.id);

function seeded(options: object = {}): GepaSearchState {
  const s = initSearchState({ experimentId: 'e', options: GepaOptionsSchema.parse({ randomSeed: 3, maxIterations: 500, maxMetricCalls: 100_000, ...options }), dataset });
  return admitSeed(s, seedSpec, evals(['v1', 'v2', 'v3'], 0.2));
}

describe('search state transitions', () => {
  it('starts with the budget planned and the seed charged and first in the pool', () => {
    const s = seeded();
    expect(s.budget).toEqual({ max: 100_000, used: 3, holdoutReserve: 4, iterationCost: 2 * 3 + 3 });
    expect(s.candidates).toHaveLength(1);
    expect(s.candidates[0]).toMatchObject({ id: `c-${specFingerprint(seedSpec)}`, componentCursor: 0, validationScores: [0.2, 0.2, 0.2] });
  });

  it('plans without mutating its input and advances the parent component cursor', () => {
    const s = seeded();
    const frozen = JSON.stringify(s);
    const { state, plan } = planIteration(s, feedbackIds);
    expect(JSON.stringify(s)).toBe(frozen);
    expect(plan).toMatchObject({ iteration: 0, parentId: s.candidates[0].id, component: 'steps' });
    expect(plan.caseIds).toEqual(plan.caseIndices.map((i) => feedbackIds[i]));
    expect(state.candidates[0].componentCursor).toBe(1);
    expect(state.prng).not.toEqual(s.prng);
  });

  it('admits an accepted child that inherits the advanced cursor, and logs it', () => {
    const planned = planIteration(seeded(), feedbackIds);
    const { plan } = planned;
    let { state } = planned;
    const parentRun = recordMinibatch(state, plan, evals(plan.caseIds, 0.2));
    const childRun = recordMinibatch(parentRun.state, plan, evals(plan.caseIds, 0.6));
    const childSpec = { ...seedSpec, steps: ['one', 'two'] };
    state = admitChild(
      childRun.state,
      plan,
      { spec: childSpec, fingerprint: specFingerprint(childSpec) },
      judgeMinibatch(parentRun.run, childRun.run),
      evals(['v3', 'v1', 'v2'], 0.5),
    );
    expect(state.iteration).toBe(1);
    expect(state.budget.used).toBe(3 + 3 + 3 + 3);
    expect(state.candidates[1]).toMatchObject({ parentId: state.candidates[0].id, mutatedComponent: 'steps', componentCursor: 1, validationMean: expect.closeTo(0.5, 12) });
    expect(state.log).toEqual([expect.objectContaining({ iteration: 0, accepted: true, outcome: 'accepted', childId: state.candidates[1].id, metricCallsAfter: 12 })]);
  });

  it('refuses to admit a rejected child or a stale plan', () => {
    const { state, plan } = planIteration(seeded(), feedbackIds);
    const run = recordMinibatch(state, plan, evals(plan.caseIds, 0.2));
    const spec = { ...seedSpec, steps: ['x'] };
    expect(() => admitChild(run.state, plan, { spec, fingerprint: specFingerprint(spec) }, judgeMinibatch(run.run, run.run), evals(['v1', 'v2', 'v3'], 1))).toThrow(
      /passed the minibatch test/,
    );
    const next = rejectIteration(run.state, plan, { outcome: 'no_change', reason: 'no change' });
    expect(() => rejectIteration(next, plan, { outcome: 'no_change', reason: 'again' })).toThrow(/iteration 0 but the state is at 1/);
  });

  it('keeps only the latest log entries and counts the dropped ones', () => {
    let s = seeded();
    for (let i = 0; i < LOG_TAIL_LIMIT + 5; i++) {
      const planned = planIteration(s, feedbackIds);
      s = rejectIteration(planned.state, planned.plan, { outcome: 'invalid_reflection', reason: `bad ${i}` });
    }
    expect(s.log).toHaveLength(LOG_TAIL_LIMIT);
    expect(s.logDropped).toBe(5);
    expect(s.log[0].iteration).toBe(5);
    expect(s.iteration).toBe(LOG_TAIL_LIMIT + 5);
  });

  it('reports a failed run without selecting anything', () => {
    const r = failedResult('e', seeded(), { stopReason: 'time_limit', error: 'time limit of 60000 ms exceeded' });
    expect(ExperimentResultSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({ status: 'failed', promotionEligible: false, seedValidationMean: expect.closeTo(0.2, 12), metricCallsUsed: 3 });
    expect(r.bestCandidateId).toBeUndefined();
    expect(r.promotionReason).toBe('the search exceeded its time limit; no candidate was selected or submitted');
  });
});

describe('evaluator contract check', () => {
  it('orders evaluations by case and returns their scores', () => {
    expect(
      alignEvaluations(
        ['a', 'b'],
        [
          { caseId: 'b', score: 0.5 },
          { caseId: 'a', score: 1 },
        ],
      ).scores,
    ).toEqual([1, 0.5]);
  });

  it('names missing, unexpected, duplicate and invalid evaluations', () => {
    const check = (raw: unknown[]) => () => alignEvaluations(['a', 'b'], raw);
    expect(check([{ caseId: 'a', score: 1 }])).toThrow(/no evaluation for case "b"/);
    expect(
      check([
        { caseId: 'a', score: 1 },
        { caseId: 'z', score: 1 },
      ]),
    ).toThrow(/evaluation for unexpected case "z"/);
    expect(
      check([
        { caseId: 'a', score: 1 },
        { caseId: 'a', score: 1 },
        { caseId: 'b', score: 0 },
      ]),
    ).toThrow(/duplicate evaluation for case "a"/);
    expect(
      check([
        { caseId: 'a', score: 1.5 },
        { caseId: 'b', score: 0 },
      ]),
    ).toThrow(EvaluationContractError);
    expect(
      check([
        { caseId: 'a', score: 1.5 },
        { caseId: 'b', score: 0 },
      ]),
    ).toThrow(/evaluation for case "a": score must be a finite number in \[0, 1\]/);
  });
});
