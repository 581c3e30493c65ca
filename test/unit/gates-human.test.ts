import { describe, expect, it } from 'vitest';
import type { RevisionAction, RevisionSource } from '../../core/schemas';
import { HumanGatePolicySchema, humanGate, type GateCandidate, type HumanGatePolicy } from '../../core/learning';

const cand = (action: RevisionAction, source: RevisionSource = 'reviewer', targetName = 'Weather'): GateCandidate => ({ action, source, targetName });

describe('human gate', () => {
  it('none holds nothing, always holds everything, create_only holds creates', () => {
    for (const a of ['create', 'update', 'delete'] as const) {
      expect(humanGate(cand(a), 'none')).toEqual({ held: false, reasons: [] });
      expect(humanGate(cand(a), 'always')).toEqual({ held: true, reasons: ['policy "always" holds every revision'] });
      expect(humanGate(cand(a), 'create_only').held).toBe(a === 'create');
    }
  });

  it('always holds externally evaluated (gepa) revisions, whatever the policy', () => {
    expect(humanGate(cand('update', 'gepa'), 'none')).toEqual({ held: true, reasons: ['externally evaluated revisions require approval'] });
  });

  it('custom policies hold on any matching condition', () => {
    const policy: HumanGatePolicy = { holdActions: ['delete'], holdSources: ['manual'], holdNamePattern: '^billing' };
    expect(humanGate(cand('delete'), policy)).toEqual({ held: true, reasons: ['policy holds delete revisions'] });
    expect(humanGate(cand('update', 'manual'), policy)).toEqual({ held: true, reasons: ['policy holds revisions from manual'] });
    expect(humanGate(cand('update', 'reviewer', 'billing-report'), policy)).toEqual({ held: true, reasons: ['skill name matches /^billing/'] });
    expect(humanGate(cand('update'), policy)).toEqual({ held: false, reasons: [] });
    // The pattern also sees the normalised name: a zero-width space does not dodge it (issue 31).
    expect(humanGate(cand('update', 'reviewer', 'bill\u200bing-report'), policy)).toEqual({ held: true, reasons: ['skill name matches /^billing/'] });
    expect(humanGate(cand('create'), {})).toEqual({ held: false, reasons: [] });
  });

  it('fails closed on any policy error', () => {
    const invalidRegex = humanGate(cand('update'), { holdNamePattern: '([unclosed' });
    expect(invalidRegex.held).toBe(true);
    expect(invalidRegex.reasons[0]).toMatch(/^human gate policy error \(held, failing closed\): Invalid regular expression/);
    expect(humanGate(cand('update'), 'sometimes' as unknown as HumanGatePolicy).held).toBe(true);
    expect(humanGate(cand('update'), { holdActions: ['publish'] } as unknown as HumanGatePolicy).held).toBe(true);
    expect(humanGate(cand('update'), null as unknown as HumanGatePolicy).held).toBe(true);
  });

  it('has a schema for policies carried in configuration and workflow input', () => {
    expect(HumanGatePolicySchema.parse('create_only')).toBe('create_only');
    expect(HumanGatePolicySchema.parse({ holdActions: ['create'] })).toEqual({ holdActions: ['create'] });
    expect(HumanGatePolicySchema.safeParse({ holdEverything: true }).success).toBe(false);
  });
});

describe('human gate: custom policy check without zod', () => {
  const POLICIES: unknown[] = [
    {},
    { holdActions: ['create', 'update', 'delete'] },
    { holdSources: ['reviewer', 'gepa', 'rollback', 'manual'] },
    { holdNamePattern: 'x'.repeat(500) },
    { holdNamePattern: 'x'.repeat(501) },
    { holdActions: ['publish'] },
    { holdActions: 'create' },
    { holdSources: ['robot'] },
    { holdNamePattern: 5 },
    { holdActions: ['create'], extra: true },
    ['create'],
    null,
    'sometimes',
  ];

  it.each(POLICIES.map((p) => [JSON.stringify(p)?.slice(0, 60) ?? String(p), p]))('fails closed exactly when the policy schema rejects it: %s', (_label, policy) => {
    const schemaOk = HumanGatePolicySchema.safeParse(policy).success;
    const report = humanGate(cand('update', 'reviewer', 'Weather'), policy as HumanGatePolicy);
    const policyError = report.reasons.some((r) => r.startsWith('human gate policy error'));
    expect(policyError).toBe(!schemaOk);
  });
});
