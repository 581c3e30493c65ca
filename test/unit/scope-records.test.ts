import { describe, expect, it } from 'vitest';
import { applyScopeRecords, emptyUsage, MAX_RECENT_EVENTS, type ScopeRecord } from '../../core/usage';
import { countRevisions, jobOutcomeDelta, transitionDelta } from '../../core/governance';
import type { AuditEvent, Revision } from '../../core';

type Countable = Pick<Revision, 'gates' | 'human' | 'history' | 'shadowBypassed'>;
const held: Countable = {
  gates: [{ gate: 'spec', ran: true, passed: true, held: false, reasons: [] }],
  human: { held: true, reasons: ['policy'] },
  history: [],
  shadowBypassed: false,
};
const audit = (i: number): AuditEvent => ({
  id: `e${i}`,
  at: new Date(Date.UTC(2026, 11, 5, 9) + i * 1000).toISOString(),
  action: 'promote',
  skillId: 's',
  scopeKey: 'global',
  actor: 'a',
  reason: '',
});
const offered = () => [];

describe('governance counters kept incrementally', () => {
  it('a revision written and then approved adds up to what counting the approved revision gives', () => {
    const approval = { to: 'active' as const, at: 't1', reason: 'approved' };
    const approved: Countable = {
      ...held,
      human: { held: true, reasons: ['policy'], decision: 'approved', reviewer: 'r' },
      history: [{ from: 'pending_approval', ...approval }],
    };
    const written = countRevisions([held]);
    const delta = transitionDelta(approved, approval, ['human']);
    expect(delta).toEqual({ promoted: 1, humanApproved: 1 });
    expect({ ...written, promoted: written.promoted + 1, humanApproved: written.humanApproved + 1 }).toEqual(countRevisions([approved]));
  });

  it('a job outcome adds its dropped candidates and a quarantined delta', () => {
    expect(jobOutcomeDelta({ status: 'quarantined', dropped: [{ name: 'x', list: 'creates', reason: 'dup' }] })).toEqual({
      droppedByReconciler: 1,
      candidatesSeen: 1,
      deltasQuarantined: 1,
    });
    expect(jobOutcomeDelta({ status: 'reviewed', dropped: [] })).toEqual({});
  });

  it('records count once by id: a retried activity sending them again changes nothing', () => {
    const records: ScopeRecord[] = [
      { kind: 'counts', id: 'revision:r1', at: 't0', counts: countRevisions([held]) },
      { kind: 'audit', event: audit(1) },
      { kind: 'session', usage: { jobId: 'j1', outcome: 'success', loads: [] }, indexEtag: null },
    ];
    const once = applyScopeRecords(emptyUsage('global'), records, offered, 't0');
    expect(once.applied).toBe(3);
    expect(once.summary.governance?.counts).toMatchObject({ revisionsWritten: 1, humanHeld: 1 });
    expect(once.summary.sessions).toBe(1);
    const again = applyScopeRecords(once.summary, records, offered, 't1');
    expect(again.applied).toBe(0);
    expect(again.summary).toEqual(once.summary);
  });

  it('keeps a bounded page of the newest audit entries, whatever the history', () => {
    let summary = emptyUsage('global');
    for (let i = 0; i < MAX_RECENT_EVENTS + 50; i++) summary = applyScopeRecords(summary, [{ kind: 'audit', event: audit(i) }], offered, 't').summary;
    expect(summary.recentEvents).toHaveLength(MAX_RECENT_EVENTS);
    expect(summary.recentEvents![0]!.id).toBe(`e${MAX_RECENT_EVENTS + 49}`);
  });
});
