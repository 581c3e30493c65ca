import { describe, expect, it } from 'vitest';
import { decidePublication, nextPointer, RECENT_OPERATIONS, revisionStatus, type ActivePointer, type SkillSpec } from '../../core';

const spec = (name: string): SkillSpec => ({ name, description: `about ${name}`, when_to_use: 'w', steps: ['s'], pitfalls: [] });
const target = (revisionId: string) => ({ skillId: 'k', revisionId, managed: true, spec: spec('k'), deleted: false });

/** A pointer moved by `ops` in order: [opId, revisionId, at]. */
function pointerAfter(ops: [string, string, string][]): ActivePointer | undefined {
  let p: ActivePointer | undefined;
  for (const [opId, rev, at] of ops) p = nextPointer(p, target(rev), { opId, at });
  return p;
}

describe('nextPointer', () => {
  it('counts seq up and remembers the last RECENT_OPERATIONS operations', () => {
    const ops = Array.from({ length: RECENT_OPERATIONS + 5 }, (_, i): [string, string, string] => [`op${i}`, `r${i}`, new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()]);
    const p = pointerAfter(ops)!;
    expect(p.seq).toBe(RECENT_OPERATIONS + 5);
    expect(p.recent).toHaveLength(RECENT_OPERATIONS);
    expect(p.recent.at(-1)).toEqual({ opId: `op${RECENT_OPERATIONS + 4}`, revisionId: `r${RECENT_OPERATIONS + 4}`, seq: RECENT_OPERATIONS + 5 });
    expect(p.recent[0]!.opId).toBe('op5');
  });

  it('writes a tombstone for a delete and refuses a live pointer without a spec', () => {
    expect(nextPointer(undefined, { skillId: 'k', revisionId: 'd', managed: true, deleted: true }, { opId: 'o', at: '2026-01-01T00:00:00.000Z' })).toMatchObject({
      deleted: true,
      seq: 1,
    });
    expect(() => nextPointer(undefined, { skillId: 'k', revisionId: 'r', managed: true, deleted: false }, { opId: 'o', at: '2026-01-01T00:00:00.000Z' })).toThrow(/no skill spec/);
  });
});

describe('decidePublication (idempotence by operation id)', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

  it('applies a new operation, recognises an applied one, even after newer operations', () => {
    expect(decidePublication({ pointer: undefined, opId: 'a' })).toEqual({ kind: 'apply' });
    const p = pointerAfter([
      ['a', 'r1', at(1)],
      ['b', 'r2', at(2)],
      ['c', 'r3', at(3)],
    ]);
    expect(decidePublication({ pointer: p, opId: 'a' })).toEqual({ kind: 'applied', applied: { opId: 'a', revisionId: 'r1', seq: 1 } });
    expect(decidePublication({ pointer: p, opId: 'd' })).toEqual({ kind: 'apply' });
  });

  it('a retry whose first attempt never wrote applies; one that cannot tell (too many newer operations) never moves the pointer back', () => {
    const few = pointerAfter(Array.from({ length: 5 }, (_, i): [string, string, string] => [`o${i}`, `r${i}`, at(i)]));
    expect(decidePublication({ pointer: few, opId: 'late', baseSeq: 0 })).toEqual({ kind: 'apply' });
    const many = pointerAfter(Array.from({ length: RECENT_OPERATIONS + 1 }, (_, i): [string, string, string] => [`o${i}`, `r${i}`, at(i)]));
    // 'o0' was applied at seq 1 and has been forgotten; its retry read seq 0 first.
    expect(decidePublication({ pointer: many, opId: 'o0', baseSeq: 0 })).toEqual({ kind: 'superseded' });
    expect(decidePublication({ pointer: many, opId: 'x', baseSeq: many!.seq - RECENT_OPERATIONS + 1 })).toEqual({ kind: 'apply' });
  });

  it('rejects a stale parent, but an applied operation is still recognised first', () => {
    const p = pointerAfter([
      ['a', 'r1', at(1)],
      ['b', 'r2', at(2)],
    ]);
    expect(decidePublication({ pointer: p, opId: 'g', requireParentId: 'r1' })).toEqual({ kind: 'stale_parent', activeRevisionId: 'r2' });
    expect(decidePublication({ pointer: p, opId: 'g', requireParentId: 'r2' })).toEqual({ kind: 'apply' });
    expect(decidePublication({ pointer: p, opId: 'b', requireParentId: 'r1' })).toMatchObject({ kind: 'applied' });
    expect(decidePublication({ pointer: undefined, opId: 'g', requireParentId: 'r1' })).toEqual({ kind: 'stale_parent', activeRevisionId: undefined });
  });
});

describe('revisionStatus (derived from the pointer)', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  const rev = (id: string, status: 'active' | 'archived' | 'pending_approval' | 'rejected' | 'pending', decidedAt: string) => ({
    id,
    status,
    updatedAt: decidedAt,
    promotedAt: decidedAt,
  });

  it('the revision the pointer names is active; others published before are archived', () => {
    const p = pointerAfter([
      ['a', 'r1', at(1)],
      ['b', 'r2', at(2)],
    ]);
    expect(revisionStatus(p, rev('r2', 'active', at(2)))).toBe('active');
    expect(revisionStatus(p, rev('r1', 'active', at(1)))).toBe('archived');
    expect(revisionStatus(p, rev('r1', 'archived', at(1)))).toBe('archived');
  });

  it('undecided statuses are the stored ones, unless the pointer names the revision', () => {
    const p = pointerAfter([['a', 'r1', at(1)]]);
    expect(revisionStatus(p, rev('h', 'pending_approval', at(5)))).toBe('pending_approval');
    expect(revisionStatus(p, rev('x', 'rejected', at(5)))).toBe('rejected');
    expect(revisionStatus(p, rev('r1', 'pending_approval', at(1)))).toBe('active');
  });

  it('decided after the last operation and not applied yet: pending; decided before it: archived (superseded)', () => {
    const p = pointerAfter([['a', 'r1', at(3)]]);
    expect(revisionStatus(p, rev('new', 'active', at(4)))).toBe('pending');
    expect(revisionStatus(undefined, rev('first', 'active', at(4)))).toBe('pending');
    expect(revisionStatus(p, rev('old', 'active', at(2)))).toBe('archived');
  });

  it('a rollback target becomes active, the revision it replaced archived, by the pointer alone', () => {
    const p = pointerAfter([
      ['a', 'r1', at(1)],
      ['b', 'r2', at(2)],
      ['rb', 'r1', at(3)],
    ]);
    expect(revisionStatus(p, rev('r1', 'active', at(1)))).toBe('active');
    expect(revisionStatus(p, rev('r2', 'active', at(2)))).toBe('archived');
  });
});
