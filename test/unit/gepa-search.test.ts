import { describe, expect, it } from 'vitest';
import {
  admitChild,
  admitSeed,
  assessPromotion,
  buildReflectionMessages,
  chargeMetricCalls,
  completedResult,
  findCandidate,
  holdoutCalls,
  initSearchState,
  judgeMinibatch,
  MetricBudgetError,
  planIteration,
  poolFingerprints,
  recordMinibatch,
  rejectIteration,
  scoreTotal,
  screenProposal,
  searchStopReason,
  seedCandidate,
  winnerOf,
  type GepaSearchState,
} from '../../core/gepa';
import { evaluateWeatherCases, makeWeatherDataset, WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import { ExperimentResultSchema, GepaOptionsSchema, type Case, type Dataset, type ExperimentResult, type SkillSpec } from '../../core/schemas';
import { reflect } from '../../infra/model-server/reflector';

interface Call {
  candidate: string;
  caseIds: string[];
  seed: number;
}

/** The workflow's loop, run synchronously with the simulated evaluator and the stand-in reflector. */
function runExperiment(dataset: Dataset, rawOptions: object, hooks: { roundTrip?: boolean } = {}) {
  const options = GepaOptionsSchema.parse(rawOptions);
  const calls: Call[] = [];
  const evaluate = (spec: SkillSpec, candidate: string, cases: Case[], seed: number) => {
    calls.push({ candidate, caseIds: cases.map((c) => c.id), seed });
    return evaluateWeatherCases(spec, cases, seed);
  };
  const feedbackIds = dataset.feedback.map((c) => c.id);
  let state: GepaSearchState = initSearchState({ experimentId: 'exp-1', options, dataset });
  state = admitSeed(state, WEATHER_SEED_SKILL, evaluate(WEATHER_SEED_SKILL, 'seed', dataset.validation, state.validationSeed));

  let stop = searchStopReason(state);
  while (!stop) {
    if (hooks.roundTrip) state = JSON.parse(JSON.stringify(state)); // what continue-as-new does to the state
    const planned = planIteration(state, feedbackIds);
    state = planned.state;
    const { plan } = planned;
    const parent = findCandidate(state, plan.parentId)!;
    const batch = plan.caseIndices.map((i) => dataset.feedback[i]);
    const parentEvals = evaluate(parent.spec, parent.id, batch, plan.pairedSeed);
    const p = recordMinibatch(state, plan, parentEvals);
    state = p.state;
    const [, user] = buildReflectionMessages({ spec: parent.spec, component: plan.component, records: batch.map((c, i) => ({ case: c, evaluation: parentEvals[i] })) });
    const screening = screenProposal({ parentSpec: parent.spec, component: plan.component, answer: reflect(user.content).reflection, poolFingerprints: poolFingerprints(state) });
    if (!screening.ok) {
      state = rejectIteration(state, plan, { outcome: screening.outcome, reason: screening.reason, parentMinibatchTotal: scoreTotal(p.run.scores) });
    } else {
      const childId = `c-${screening.fingerprint}`;
      const c = recordMinibatch(state, plan, evaluate(screening.spec, childId, batch, plan.pairedSeed));
      state = c.state;
      const verdict = judgeMinibatch(p.run, c.run);
      if (!verdict.accepted) {
        state = rejectIteration(state, plan, {
          outcome: 'not_better',
          reason: verdict.reason,
          parentMinibatchTotal: verdict.parentTotal,
          childMinibatchTotal: verdict.childTotal,
          childId,
        });
      } else {
        state = admitChild(state, plan, screening, verdict, evaluate(screening.spec, childId, dataset.validation, state.validationSeed));
      }
    }
    stop = searchStopReason(state);
  }

  const winner = winnerOf(state);
  const seed = seedCandidate(state);
  state = chargeMetricCalls(state, holdoutCalls(dataset.holdout.length, winner.isSeed), 'holdout');
  const seedHoldout = evaluate(seed.spec, seed.id, dataset.holdout, state.holdoutSeed).map((e) => e.score);
  const winnerHoldout = winner.isSeed ? seedHoldout : evaluate(winner.candidate.spec, winner.id, dataset.holdout, state.holdoutSeed).map((e) => e.score);
  const promotion = assessPromotion({
    winnerIsSeed: winner.isSeed,
    holdoutCases: dataset.holdout,
    seedHoldoutScores: seedHoldout,
    winnerHoldoutScores: winnerHoldout,
    minHoldoutImprovement: options.minHoldoutImprovement,
  });
  const result: ExperimentResult = completedResult(state, { stopReason: stop, promotion });
  return { state, result, calls };
}

const dataset = makeWeatherDataset({ seed: 7, feedback: 12, validation: 12, holdout: 12, criticalEvery: 4 });

describe('GEPA search over the simulated family', () => {
  const { state, result, calls } = runExperiment(dataset, { randomSeed: 7 });

  it('improves the weak seed within 10 iterations and makes the winner promotion-eligible', () => {
    expect(ExperimentResultSchema.parse(result)).toEqual(result);
    expect(result.status).toBe('completed');
    expect(result.stopReason).toBe('max_iterations');
    expect(result.iterations).toBe(10);
    expect(result.seedValidationMean!).toBeLessThan(0.35);
    expect(result.bestValidationMean!).toBeGreaterThan(result.seedValidationMean! + 0.4);
    expect(result.bestCandidateId).not.toBe(state.candidates[0].id);
    expect(result.promotionEligible).toBe(true);
    expect(result.holdout!.delta).toBeGreaterThan(0.4);
    expect(result.holdout!.criticalRegressions).toEqual([]);
  });

  it('keeps the seed first, logs every iteration, and only admits strict minibatch improvements', () => {
    expect(state.candidates[0].spec).toEqual(WEATHER_SEED_SKILL);
    expect(state.log.map((l) => l.iteration)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const accepted = state.log.filter((l) => l.accepted);
    expect(accepted.length).toBe(state.candidates.length - 1);
    for (const entry of accepted) expect(entry.childMinibatchTotal!).toBeGreaterThan(entry.parentMinibatchTotal!);
    for (const entry of state.log.filter((l) => !l.accepted)) expect(entry.reason).toMatch(/^(not better|no change|duplicate candidate|invalid reflector output)/);
  });

  it('counts exactly the case evaluations made, and stays within the budget', () => {
    expect(result.metricCallsUsed).toBe(calls.reduce((n, c) => n + c.caseIds.length, 0));
    expect(result.metricCallsUsed).toBeLessThanOrEqual(1000);
  });

  it('pairs seeds: every validation run shares one seed, parent and child share the minibatch seed, holdout runs share one', () => {
    const validationIds = dataset.validation.map((c) => c.id).join();
    const validationSeeds = new Set(calls.filter((c) => c.caseIds.join() === validationIds).map((c) => c.seed));
    expect(validationSeeds).toEqual(new Set([state.validationSeed]));
    const holdoutSeeds = new Set(calls.filter((c) => c.caseIds[0]?.startsWith('weather-holdout')).map((c) => c.seed));
    expect(holdoutSeeds).toEqual(new Set([state.holdoutSeed]));
    for (const entry of state.log.filter((l) => l.childMinibatchTotal !== undefined)) {
      const minibatchCalls = calls.filter((c) => c.seed === entry.pairedSeed);
      expect(minibatchCalls).toHaveLength(2);
      expect(minibatchCalls[0].caseIds).toEqual(minibatchCalls[1].caseIds);
    }
  });

  it('is reproducible, also when the state goes through JSON between iterations (continue-as-new)', () => {
    const again = runExperiment(dataset, { randomSeed: 7 });
    expect(again.state).toEqual(state);
    const roundTripped = runExperiment(dataset, { randomSeed: 7 }, { roundTrip: true });
    expect(roundTripped.state).toEqual(state);
    expect(roundTripped.result).toEqual(result);
  });

  it('stops on the metric budget before an iteration could eat into the holdout reserve', () => {
    // seed validation 12 + holdout reserve 24 = 36; one iteration costs 2×3 + 12 = 18.
    const max = 36 + 18 * 2 + 17;
    const run = runExperiment(dataset, { randomSeed: 7, maxMetricCalls: max });
    expect(run.result.stopReason).toBe('metric_budget');
    expect(run.result.iterations).toBeGreaterThanOrEqual(2);
    expect(run.result.iterations).toBeLessThan(10);
    const searchCalls = run.result.metricCallsUsed - holdoutCalls(12, run.result.bestCandidateId === run.state.candidates[0].id);
    expect(searchCalls + 18 + 24).toBeGreaterThan(max); // one more iteration could not have fitted
    expect(run.result.metricCallsUsed).toBeLessThanOrEqual(max);
    expect(run.result.metricCallsUsed).toBe(run.calls.reduce((n, c) => n + c.caseIds.length, 0));
  });

  it('refuses to start when the budget cannot cover seed validation and the holdout reserve', () => {
    expect(() => runExperiment(dataset, { maxMetricCalls: 35 })).toThrow(MetricBudgetError);
  });

  it('with no iterations the seed wins and nothing is eligible for submission', () => {
    const run = runExperiment(dataset, { maxIterations: 0 });
    expect(run.result.bestCandidateId).toBe(run.state.candidates[0].id);
    expect(run.result.promotionEligible).toBe(false);
    expect(run.result.promotionReason).toMatch(/^validation selected the seed skill/);
    expect(run.result.metricCallsUsed).toBe(12 + 12);
  });
});
