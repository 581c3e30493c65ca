import { describe, expect, it } from 'vitest';
import { rolloutTarget } from '../../activities/rollout';
import {
  afterStep,
  approverActionProblems,
  cohortCounts,
  DEFAULT_ROLLOUT_SETTINGS,
  initialProgress,
  nextPointer,
  parseConfig,
  type ActivePointer,
  type SkillSpec,
} from '../../core';
import { rolloutWorkflowId } from '../../core/workflow-ids';
import { checkRolloutInput } from '../../core/workflow-inputs';
import { observe, PRODUCT_METRICS } from '../../workers/telemetry/product-metrics';

const spec = (description: string): SkillSpec => ({ name: 'weather', description, when_to_use: 'w', steps: ['s'], pitfalls: [] });

function canaryPointer(candidate = 'rev-cand'): ActivePointer {
  const stable = nextPointer(
    undefined,
    { skillId: 'weather', revisionId: 'rev-stable', managed: true, spec: spec('stable'), deleted: false },
    { opId: 'op1', at: '2026-12-05T08:00:00.000Z' },
  );
  return nextPointer(
    stable,
    {
      skillId: 'weather',
      revisionId: 'rev-stable',
      managed: true,
      spec: spec('stable'),
      deleted: false,
      canary: { revisionId: candidate, spec: spec('candidate'), fraction: 0.05, startedAt: '2026-12-05T09:00:00.000Z' },
    },
    { opId: 'op2', at: '2026-12-05T09:00:00.000Z' },
  );
}

describe('rollout pointer targets (what each decision writes over the live canary)', () => {
  it('a step keeps the stable revision and changes only the fraction', () => {
    expect(rolloutTarget(canaryPointer(), { candidateRevisionId: 'rev-cand', kind: 'step', fraction: 0.25 })).toEqual({
      skillId: 'weather',
      revisionId: 'rev-stable',
      managed: true,
      spec: spec('stable'),
      deleted: false,
      canary: { revisionId: 'rev-cand', spec: spec('candidate'), fraction: 0.25, startedAt: '2026-12-05T09:00:00.000Z' },
    });
  });

  it('a promotion makes the candidate the revision and ends the canary; a rollback keeps the stable one and ends it', () => {
    expect(rolloutTarget(canaryPointer(), { candidateRevisionId: 'rev-cand', kind: 'promote' })).toEqual({
      skillId: 'weather',
      revisionId: 'rev-cand',
      managed: true,
      spec: spec('candidate'),
      deleted: false,
    });
    expect(rolloutTarget(canaryPointer(), { candidateRevisionId: 'rev-cand', kind: 'rollback' })).toEqual({
      skillId: 'weather',
      revisionId: 'rev-stable',
      managed: true,
      spec: spec('stable'),
      deleted: false,
    });
  });

  it('refuses when the pointer no longer carries this canary (another operation ended or replaced it)', () => {
    expect(rolloutTarget(canaryPointer('rev-newer'), { candidateRevisionId: 'rev-cand', kind: 'promote' })).toEqual({
      refused: 'the pointer no longer carries canary rev-cand (it names canary rev-newer over rev-stable)',
    });
    expect(rolloutTarget(undefined, { candidateRevisionId: 'rev-cand', kind: 'rollback' })).toMatchObject({ refused: expect.stringMatching(/not published/) });
  });
});

describe('rollout progress and approver actions', () => {
  it('counts a session as judged when the platform reported an outcome, and as a success only for success', () => {
    expect(cohortCounts({ n: 10, unknown: 3, success: 4 })).toEqual({ judged: 7, success: 4 });
    expect(cohortCounts(undefined)).toEqual({ judged: 0, success: 0 });
  });

  it('a step moves to the next fraction and counts the next step sample from there', () => {
    expect(afterStep(initialProgress(0.05), 0.25, 130)).toEqual({ stepIndex: 1, fraction: 0.25, candidateAtStepStart: 130, checks: 0, held: false });
  });

  it('names what is wrong with an approver action', () => {
    expect(approverActionProblems({ reviewer: 'alice', comment: 'ok' })).toEqual([]);
    expect(approverActionProblems({ reviewer: '  ' })).toEqual(['reviewer: a reviewer name is required']);
    expect(approverActionProblems({ reviewer: 'rollout' })).toEqual(['reviewer: reviewer "rollout" is reserved for the rollout workflow']);
    expect(approverActionProblems('alice')).toEqual(['action: expected an object']);
  });

  it('checks the workflow input field by field', () => {
    const good = { scopeKey: 'apps/a', skillId: 's', candidateRevisionId: 'c', stableRevisionId: 'b', startedAt: '2026-12-05T09:00:00.000Z', settings: DEFAULT_ROLLOUT_SETTINGS };
    expect(checkRolloutInput(good)).toEqual([]);
    expect(checkRolloutInput({ ...good, startedAt: 'yesterday', settings: { ...DEFAULT_ROLLOUT_SETTINGS, steps: [0.5, 0.25], onExpiry: 'never' } })).toEqual([
      'startedAt: expected an ISO time, got "yesterday"',
      'settings.steps: expected ascending fractions',
      'settings.onExpiry: expected one of rollback, hold, promote, got a string',
    ]);
  });

  it('one rollout per candidate revision', () => {
    expect(rolloutWorkflowId('rev-cand')).toBe('rollout/rev-cand');
  });
});

describe('canary settings (EVOLUTION_CANARY*)', () => {
  it('default off; a policy and its rollout settings parse with their names in errors', () => {
    expect(parseConfig({}).governance.canary?.policy).toBe('none');
    const c = parseConfig({ EVOLUTION_CANARY: 'gepa,high-risk', EVOLUTION_CANARY_STEPS: '10,50', EVOLUTION_CANARY_MIN_SAMPLE: '50', EVOLUTION_CANARY_ON_EXPIRY: 'hold' }).governance
      .canary;
    expect(c).toMatchObject({ policy: ['gepa', 'high-risk'], rollout: { steps: [0.1, 0.5], minSamplePerCohort: 50, onExpiry: 'hold' } });
    expect(() => parseConfig({ EVOLUTION_CANARY: 'sometimes' })).toThrow(/EVOLUTION_CANARY/);
    expect(() => parseConfig({ EVOLUTION_CANARY_STEPS: '50,10' })).toThrow(/EVOLUTION_CANARY_STEPS/);
  });

  it("the sequential test's margin (percentage points) and error rate are settings, the documented defaults when unset", () => {
    expect(parseConfig({}).governance.canary?.rollout).toMatchObject({ nonInferiorityMargin: 0.05, alpha: 0.05 });
    expect(parseConfig({ EVOLUTION_CANARY_MARGIN: '2.5', EVOLUTION_CANARY_ALPHA: '0.01' }).governance.canary?.rollout).toMatchObject({
      nonInferiorityMargin: 0.025,
      alpha: 0.01,
    });
    expect(parseConfig({ EVOLUTION_CANARY_MARGIN: '0' }).governance.canary?.rollout.nonInferiorityMargin).toBe(0);
    expect(() => parseConfig({ EVOLUTION_CANARY_MARGIN: '100' })).toThrow(/EVOLUTION_CANARY_MARGIN/);
    expect(() => parseConfig({ EVOLUTION_CANARY_MARGIN: 'five' })).toThrow(/EVOLUTION_CANARY_MARGIN/);
    expect(() => parseConfig({ EVOLUTION_CANARY_ALPHA: '0.6' })).toThrow(/EVOLUTION_CANARY_ALPHA/);
    expect(() => parseConfig({ EVOLUTION_CANARY_ALPHA: '0' })).toThrow(/EVOLUTION_CANARY_ALPHA/);
  });
});

describe('rollout metrics (observed at the activity boundary)', () => {
  it('counts canary starts, decisions by who decided, and looks', () => {
    const names = (type: string, input: unknown, result?: unknown) => observe(type, [input], result, undefined, 3).counters.map((c) => `${c.name}${JSON.stringify(c.tags)}`);
    expect(names('publishRevision', { auditAction: 'approve' }, { outcome: 'published', canary: { fraction: 0.05 } })).toContain(
      `${PRODUCT_METRICS.rolloutDecisions}{"decision":"start","decided_by":"publisher","outcome":"applied"}`,
    );
    expect(names('applyRolloutDecision', { kind: 'rollback', actor: 'rollout' }, { outcome: 'applied' })).toEqual([
      `${PRODUCT_METRICS.rolloutDecisions}{"decision":"rollback","decided_by":"rollout","outcome":"applied"}`,
    ]);
    expect(names('applyRolloutDecision', { kind: 'promote', actor: 'alice' }, { outcome: 'refused' })).toEqual([
      `${PRODUCT_METRICS.rolloutDecisions}{"decision":"promote","decided_by":"approver","outcome":"refused"}`,
    ]);
    expect(names('readCanaryCohorts', {}, {})).toEqual([`${PRODUCT_METRICS.rolloutChecks}{"outcome":"success"}`]);
  });
});
