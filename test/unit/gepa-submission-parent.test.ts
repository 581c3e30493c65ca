import { describe, expect, it } from 'vitest';
import { submissionParentProblem } from '../../core';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';

// Issue 10 item 6: the check startExperiment and the prepare step run before any metric call.
describe('submissionParentProblem', () => {
  const live = { skillId: 'weather-report', revisionId: 'r1', spec: WEATHER_SEED_SKILL, publishedAt: '2026-01-01T00:00:00.000Z', managed: true };
  const ask = (active: unknown, parentRevisionId = 'r1') => submissionParentProblem({ skillId: 'weather-report', scopeKey: 'apps/a', parentRevisionId, active: active as never });

  it('accepts a managed skill whose active revision is the parent', () => {
    expect(ask(live)).toBeUndefined();
  });
  it('refuses a missing or deleted skill, an unmanaged one, and a stale parent', () => {
    expect(ask(undefined)).toMatch(/has no active revision in apps\/a/);
    expect(ask({ ...live, deleted: true })).toMatch(/has no active revision/);
    expect(ask({ ...live, managed: false })).toMatch(/not in the managed area/);
    expect(ask(live, 'r0')).toMatch(/stale parent: the active revision of skill weather-report is r1, not r0/);
  });
});
