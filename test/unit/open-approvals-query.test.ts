import { describe, expect, it } from 'vitest';
import { openApprovalsQuery } from '../../client/approvals';
import { workflowIdsQuery } from '../../core/search-attributes';

describe('open approvals visibility query', () => {
  const base = `EvolutionKind = 'approval' AND ExecutionStatus = 'Running'`;

  it('every scope, some keys, key prefixes; nothing when no scope can match', () => {
    expect(openApprovalsQuery({ all: true, scopeKeys: ['apps/x'] })).toBe(base);
    expect(openApprovalsQuery({ scopeKeys: ['apps/shop', 'global'] })).toBe(`${base} AND (EvolutionScopeKey IN ('apps/shop', 'global'))`);
    expect(openApprovalsQuery({ scopeKeys: ['apps/shop'], scopePrefixes: ['users/shop/'] })).toBe(
      `${base} AND (EvolutionScopeKey IN ('apps/shop') OR EvolutionScopeKey STARTS_WITH 'users/shop/')`,
    );
    expect(openApprovalsQuery({})).toBeUndefined();
    expect(openApprovalsQuery({ scopeKeys: [], scopePrefixes: [] })).toBeUndefined();
  });

  it('quotes and backslashes in a pattern stay inside the literal', () => {
    expect(openApprovalsQuery({ scopeKeys: [`apps/x' OR EvolutionKind = 'session`] })).toBe(`${base} AND (EvolutionScopeKey IN ('apps/x\\' OR EvolutionKind = \\'session'))`);
    expect(openApprovalsQuery({ scopePrefixes: ['a\\'] })).toBe(`${base} AND (EvolutionScopeKey STARTS_WITH 'a\\\\')`);
  });

  it('workflows by id: each id one quoted literal, whatever it holds', () => {
    expect(workflowIdsQuery(['learning/apps/shop/s1/abc', "approval/rev-1' OR WorkflowId != '"])).toBe(
      `WorkflowId IN ('learning/apps/shop/s1/abc', 'approval/rev-1\\' OR WorkflowId != \\'')`,
    );
  });
});
