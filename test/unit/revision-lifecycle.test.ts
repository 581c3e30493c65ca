import { describe, expect, it } from 'vitest';
import { REVISION_STATUSES, type RevisionStatus } from '../../core';
import { REVISION_TRANSITIONS, canTransition, illegalTransitionMessage, isTerminalStatus, judgeTransition } from '../../core/revision-lifecycle';

// The table of docs/design.md "Revision lifecycle", written out independently of the implementation.
const EXPECTED: Record<RevisionStatus, RevisionStatus[]> = {
  pending: ['rejected', 'pending_eval', 'pending_approval', 'active'],
  pending_eval: ['active', 'rejected', 'pending_approval'],
  pending_approval: ['active', 'rejected'],
  active: ['archived'],
  archived: ['active'],
  rejected: [],
};

describe('revision lifecycle', () => {
  it('covers every status', () => {
    expect(Object.keys(REVISION_TRANSITIONS).sort()).toEqual([...REVISION_STATUSES].sort());
  });

  it.each(REVISION_STATUSES.flatMap((from) => REVISION_STATUSES.map((to) => [from, to] as const)))('%s → %s', (from, to) => {
    const legal = EXPECTED[from].includes(to);
    expect(canTransition(from, to)).toBe(legal);
    expect(judgeTransition(from, to)).toBe(from === to ? 'noop' : legal ? 'apply' : 'illegal');
  });

  it('has exactly one terminal status', () => {
    expect(REVISION_STATUSES.filter(isTerminalStatus)).toEqual(['rejected']);
  });

  it('never lets a candidate skip the gates back into pending', () => {
    for (const from of REVISION_STATUSES) expect(canTransition(from, 'pending')).toBe(false);
  });

  it('explains a refused move', () => {
    expect(illegalTransitionMessage('r1', 'rejected', 'active')).toBe('revision r1 cannot move from rejected to active (rejected is terminal)');
    expect(illegalTransitionMessage('r2', 'active', 'pending_approval')).toBe('revision r2 cannot move from active to pending_approval (allowed from active: archived)');
  });
});
