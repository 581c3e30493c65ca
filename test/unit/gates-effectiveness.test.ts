import { describe, expect, it } from 'vitest';
import type { SkillSpec } from '../../core/schemas';
import { effectivenessGate, type GateCandidate } from '../../core/learning';

const spec: SkillSpec = { name: 'S', description: 'd', when_to_use: 'w', steps: ['a', 'b'], pitfalls: [] };
const create: GateCandidate = { action: 'create', source: 'reviewer', spec, targetName: 'S' };

describe('effectiveness gate', () => {
  it('passes without an outcome, saying there is no evidence', () => {
    expect(effectivenessGate(create, undefined, 0.8)).toEqual({
      gate: 'effectiveness',
      ran: true,
      passed: true,
      held: false,
      reasons: ['no outcome attached: passed without evidence of effectiveness'],
    });
  });

  it('passes success and partial at or above the threshold', () => {
    expect(effectivenessGate(create, { status: 'success', score: 0.8 }, 0.8).passed).toBe(true);
    expect(effectivenessGate(create, { status: 'partial', score: 0.95 }, 0.8).passed).toBe(true);
    expect(effectivenessGate(create, { status: 'success' }, 0.8).passed).toBe(true);
  });

  it('holds failed runs and low scores for evaluation', () => {
    expect(effectivenessGate(create, { status: 'fail' }, 0.8)).toEqual({
      gate: 'effectiveness',
      ran: true,
      passed: false,
      held: true,
      reasons: ['session outcome is "fail"; held for evaluation'],
    });
    expect(effectivenessGate(create, { status: 'agent_error', score: 0.1 }, 0.8).reasons).toEqual([
      'session outcome is "agent_error"; held for evaluation',
      'session score 0.10 is below the threshold 0.80',
    ]);
    expect(effectivenessGate(create, { status: 'success', score: 0.79 }, 0.8)).toMatchObject({ passed: false, held: true });
  });

  it('always passes deletes, even from failed runs', () => {
    expect(effectivenessGate({ action: 'delete', source: 'reviewer', targetName: 'S' }, { status: 'fail', score: 0 }, 0.8)).toMatchObject({ passed: true, held: false });
  });
});
