import { describe, expect, it } from 'vitest';
import { meanScore } from '../../core/gepa';
import {
  evaluateWeatherCases,
  makeWeatherDataset,
  scoreWeatherCase,
  WEATHER_IMPROVED_SKILL,
  WEATHER_REQUIREMENTS,
  WEATHER_SEED_SKILL,
} from '../../workers/evaluator/simulated-weather';
import { DatasetSchema, EvaluationSchema, type SkillSpec } from '../../core/schemas';

const dataset = makeWeatherDataset({ seed: 7, feedback: 12, validation: 12, holdout: 12, criticalEvery: 4 });
const validationMean = (spec: SkillSpec, seed: number) => meanScore(evaluateWeatherCases(spec, dataset.validation, seed).map((e) => e.score));

describe('simulated multi-city weather family', () => {
  it('is an example evaluator beside the evaluator worker, not part of core', async () => {
    const core = await import('../../core');
    expect(Object.keys(core).filter((name) => /weather/i.test(name))).toEqual([]);
  });

  it('generates a valid dataset deterministically from its seed, with critical holdout cases', () => {
    expect(DatasetSchema.parse(dataset)).toEqual(dataset);
    expect(makeWeatherDataset({ seed: 7, feedback: 12, validation: 12, holdout: 12, criticalEvery: 4 })).toEqual(dataset);
    expect(makeWeatherDataset({ seed: 8, feedback: 12, validation: 12, holdout: 12 }).validation).not.toEqual(dataset.validation);
    expect(dataset.holdout.filter((c) => c.critical).map((c) => c.id)).toEqual(['weather-holdout-004', 'weather-holdout-008', 'weather-holdout-012']);
    const ids = [...dataset.feedback, ...dataset.validation, ...dataset.holdout].map((c) => c.id);
    expect(new Set(ids).size).toBe(36);
  });

  it('scores a weak seed clearly below a skill that covers the requirements', () => {
    for (const seed of [1, 2, 3]) {
      const weak = validationMean(WEATHER_SEED_SKILL, seed);
      const strong = validationMean(WEATHER_IMPROVED_SKILL, seed);
      expect(weak).toBeLessThan(0.35);
      expect(strong).toBeGreaterThan(0.9);
    }
  });

  it('rewards each requirement phrase added verbatim to the component it reads', () => {
    let spec = WEATHER_SEED_SKILL;
    let previous = validationMean(spec, 1);
    for (const r of WEATHER_REQUIREMENTS.filter((req) => req.id !== 'report')) {
      spec =
        r.reads === 'method'
          ? { ...spec, pitfalls: [...spec.pitfalls, `Do not forget to ${r.phrase}.`] }
          : { ...spec, when_to_use: `${spec.when_to_use} Make sure to cover: ${r.phrase}.` };
      const now = validationMean(spec, 1);
      expect(now, `adding "${r.phrase}"`).toBeGreaterThan(previous);
      previous = now;
    }
    expect(previous).toBeGreaterThan(0.9);
  });

  it('returns contract-valid evaluations whose feedback lists what is missing', () => {
    const evaluations = evaluateWeatherCases(WEATHER_SEED_SKILL, dataset.feedback, 5);
    expect(evaluations.map((e) => e.caseId)).toEqual(dataset.feedback.map((c) => c.id));
    for (const e of evaluations) {
      expect(EvaluationSchema.parse(e)).toEqual(e);
      expect(e.feedback).toMatch(/^missing: verify every requested city appears in the report$/m);
      expect(e.output).toMatch(/^Report: /);
      expect(e.trace).toMatch(/weather\(/);
    }
    const full = scoreWeatherCase(WEATHER_IMPROVED_SKILL, dataset.feedback[0], 5);
    expect(full.feedback).not.toMatch(/missing:/);
  });

  it('makes the evaluator seed matter: same seed same result, other seeds other conditions', () => {
    const c = dataset.validation[0];
    expect(scoreWeatherCase(WEATHER_SEED_SKILL, c, 11)).toEqual(scoreWeatherCase(WEATHER_SEED_SKILL, c, 11));
    const scores = new Set(Array.from({ length: 10 }, (_, s) => scoreWeatherCase(WEATHER_SEED_SKILL, c, s).score));
    expect(scores.size).toBeGreaterThan(1);
    // Noise depends on (case, seed) only: two skills that say the same thing score the same under one seed.
    const reworded = { ...WEATHER_SEED_SKILL, name: 'weather-report-2' };
    expect(scoreWeatherCase(reworded, c, 11).score).toBe(scoreWeatherCase(WEATHER_SEED_SKILL, c, 11).score);
  });
});
