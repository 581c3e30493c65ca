import { describe, expect, it } from 'vitest';
import {
  admitChild,
  admitSeed,
  batchSpend,
  completedResult,
  failedResult,
  initSearchState,
  judgeMinibatch,
  planIteration,
  recordMinibatch,
  rejectIteration,
  specFingerprint,
  withTracking,
  type GepaSearchState,
} from '../../core/gepa';
import { ExperimentResultSchema, GepaOptionsSchema, type SkillSpec } from '../../core/schemas';

const cases = (p: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${p}${i + 1}`, input: i, critical: false }));
const dataset = { feedback: cases('f', 5), validation: cases('v', 3), holdout: cases('h', 2) };
const feedbackIds = dataset.feedback.map((c) => c.id);
const seedSpec: SkillSpec = { name: 's', description: 'd', when_to_use: 'w', steps: ['one'], pitfalls: [] };
const evals = (ids: readonly string[], score: number) => ids.map((caseId) => ({ caseId, score }));

function tracked(merge = false): GepaSearchState {
  const s = initSearchState({ experimentId: 'e', options: GepaOptionsSchema.parse({ randomSeed: 3, maxIterations: 50, maxMetricCalls: 10_000 }), dataset });
  return admitSeed(withTracking(s, { plan: { proposalsPossible: 50 }, merge }), seedSpec, evals(['v1', 'v2', 'v3'], 0.2), {
    charge: 1,
    cacheHits: 2,
    spend: batchSpend([{ tokens: 10, costUsd: 0.5 }]),
    objectives: { tokens: 10 },
  });
}

describe('search state: cache hits, spend, objectives, merge schedule', () => {
  it('charges only the evaluations that were run, and counts the hits and the spend', () => {
    const s = tracked();
    expect(s.budget.used).toBe(1);
    expect(s.cacheHits).toBe(2);
    expect(s.spend!.evaluator).toEqual({ tokens: 10, costUsd: 0.5 });
    expect(s.candidates[0].validationObjectives).toEqual({ tokens: 10 });
  });

  it('logs each iteration’s cache hits; an older state (no counters) logs none', () => {
    const { state, plan } = planIteration(tracked(), feedbackIds);
    const parent = recordMinibatch(state, plan, evals(plan.caseIds, 0.3), { charge: 0, cacheHits: 3 });
    const rejected = rejectIteration(parent.state, plan, { outcome: 'no_change', reason: 'same' });
    expect(rejected.log.at(-1)).toMatchObject({ cacheHits: 3, metricCallsAfter: 1 });
    const old = initSearchState({ experimentId: 'e', options: GepaOptionsSchema.parse({ randomSeed: 3 }), dataset });
    const oldSeeded = admitSeed(old, seedSpec, evals(['v1', 'v2', 'v3'], 0.2));
    const p = planIteration(oldSeeded, feedbackIds);
    expect(rejectIteration(p.state, p.plan, { outcome: 'no_change', reason: 'same' }).log.at(-1)).not.toHaveProperty('cacheHits');
    expect(rejectIteration(p.state, p.plan, { outcome: 'no_change', reason: 'same' }).log.at(-1)).not.toHaveProperty('kind');
  });

  it('an accepted child schedules a merge (up to maxMerges); a rejected iteration clears the trigger', () => {
    const run = (s: GepaSearchState, accept: boolean) => {
      const planned = planIteration(s, feedbackIds);
      const p = recordMinibatch(planned.state, planned.plan, evals(planned.plan.caseIds, 0.2));
      if (!accept) return rejectIteration(p.state, planned.plan, { outcome: 'not_better', reason: 'no' });
      const c = recordMinibatch(p.state, planned.plan, evals(planned.plan.caseIds, 0.9));
      const spec = { ...seedSpec, steps: [`step ${s.iteration}`] };
      return admitChild(c.state, planned.plan, { spec, fingerprint: specFingerprint(spec) }, judgeMinibatch(p.run, c.run), evals(['v1', 'v2', 'v3'], 0.5), { maxMerges: 1 });
    };
    let s = run(tracked(true), true);
    expect(s.merge).toMatchObject({ due: 1, lastIterationFoundNew: true });
    expect(s.log.at(-1)).toMatchObject({ kind: 'reflection', outcome: 'accepted' });
    s = run(s, true);
    expect(s.merge).toMatchObject({ due: 1 }); // maxMerges 1: no second one
    s = run(s, false);
    expect(s.merge).toMatchObject({ due: 1, lastIterationFoundNew: false });
  });

  it('reports the proposals possible and run, hits, spend and merges, and a cancelled run as such', () => {
    const s = tracked(true);
    const completed = completedResult(s, { stopReason: 'cost_budget', promotion: { eligible: false, reason: 'seed' }, resumes: 1 });
    expect(completed).toMatchObject({ proposalsPossible: 50, proposals: 0, cacheHits: 2, merges: { attempted: 0, accepted: 0 }, resumes: 1, stopReason: 'cost_budget' });
    expect(completed.spend).toEqual({ tokens: 10, costUsd: 0.5, evaluator: { tokens: 10, costUsd: 0.5 }, reflector: { tokens: 0, costUsd: 0 } });
    expect(ExperimentResultSchema.safeParse(completed).success).toBe(true);
    const cancelled = failedResult('e', s, { stopReason: 'cancelled', error: 'cancelled by alice' });
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      stopReason: 'cancelled',
      promotionEligible: false,
      promotionReason: 'the experiment was cancelled; no candidate was selected or submitted',
    });
    expect(ExperimentResultSchema.safeParse(cancelled).success).toBe(true);
    expect(ExperimentResultSchema.safeParse({ ...cancelled, promotionEligible: true }).success).toBe(false);
  });
});
