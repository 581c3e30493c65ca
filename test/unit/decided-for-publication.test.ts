import { describe, expect, it } from 'vitest';
import { pointerTargetOf } from '../../activities/publisher';
import { buildGovernedRevision, decidedForPublication, jobPublication, publicationReason, publishableOf, type GovernanceSettings } from '../../core/governance';

const governance: GovernanceSettings = { humanGate: 'none', shadowMode: false, minToolCalls: 4, effectivenessThreshold: 0.8 };

function gated(humanGate: GovernanceSettings['humanGate'] = 'none') {
  return buildGovernedRevision(
    {
      candidate: {
        action: 'create',
        source: 'reviewer',
        spec: { name: 'decided-skill', description: 'Decides what a revision is stored as', when_to_use: 'when testing publication', steps: ['look', 'apply'], pitfalls: [] },
        targetName: 'decided-skill',
      },
      revisionId: 'rev-decided',
      skillId: 'decided-skill',
      jobId: 'job-decided',
      scope: { mode: 'app', app: 'a' },
      scopeKey: 'apps/a',
      reason: 'r',
    },
    { existing: [], governance: { ...governance, humanGate }, at: '2026-12-02T10:00:00.000Z' },
  );
}

describe('decidedForPublication', () => {
  it('stores a revision that passed every gate as decided for publication at its creation, its history saying why', () => {
    const rev = gated();
    expect(rev.status).toBe('pending');
    const decided = decidedForPublication(rev);
    expect(decided).toEqual({
      ...rev,
      status: 'active',
      promotedAt: rev.createdAt,
      history: [...rev.history, { from: 'pending', to: 'active', at: rev.createdAt, reason: 'all gates passed' }],
    });
    expect(rev.status).toBe('pending'); // the input is not changed
  });

  it('leaves a held revision as gated', () => {
    const held = gated('always');
    expect(held.status).toBe('pending_approval');
    expect(decidedForPublication(held)).toBe(held);
  });

  it('names shadow mode as the reason when the gates were bypassed', () => {
    expect(publicationReason({ shadowBypassed: true })).toBe('shadow mode: published despite gate verdicts');
    expect(publicationReason({ shadowBypassed: false })).toBe('all gates passed');
  });
});

describe('publishableOf', () => {
  it('keeps what publishing reads of a revision and drops its gates and provenance', () => {
    const decided = decidedForPublication(gated());
    const publishable = publishableOf(decided);
    expect(publishable).toEqual({
      id: decided.id,
      skillId: decided.skillId,
      scopeKey: decided.scopeKey,
      action: decided.action,
      source: decided.source,
      ...(decided.risk ? { risk: { tier: decided.risk.tier, reasons: [] } } : {}),
      status: 'active',
      spec: decided.spec,
      human: decided.human,
      shadowBypassed: false,
      history: decided.history,
    });
    expect(pointerTargetOf(publishable)).toEqual(pointerTargetOf(decided));
    expect(JSON.stringify(publishable).length).toBeLessThan(JSON.stringify(decided).length);
  });

  it('keeps a parent and a human report when the revision has them', () => {
    const held = { ...gated('always'), parentId: 'rev-parent' };
    expect(publishableOf(held)).toMatchObject({ parentId: 'rev-parent', human: held.human });
  });
});

describe('jobPublication', () => {
  it("asks for the job's own publish step, promoted by evolution at the revision's creation, from what the job knows it stored", () => {
    const rev = gated();
    const request = jobPublication('job-decided', rev, { asWritten: true });
    expect(request).toEqual({
      revision: { scopeKey: 'apps/a', skillId: 'decided-skill', revisionId: 'rev-decided' },
      known: publishableOf(decidedForPublication(rev)),
      opId: 'job-decided#publish/rev-decided',
      actor: 'evolution',
      reason: 'all gates passed',
      at: rev.createdAt,
      auditAction: 'promote',
      awaitIndex: false,
    });
  });

  it('passes the stored copy when recordRevision found the revision moved on', () => {
    const rev = gated();
    const decided = decidedForPublication(rev);
    const stored = {
      ...decided,
      status: 'archived' as const,
      history: [...decided.history, { from: 'active' as const, to: 'archived' as const, at: '2026-12-02T11:00:00.000Z', reason: 'superseded' }],
    };
    const known = jobPublication('job-decided', rev, stored).known;
    expect(known).toEqual(publishableOf(stored));
    expect(known).not.toEqual(publishableOf(decided));
  });
});
