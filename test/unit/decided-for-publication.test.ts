import { describe, expect, it } from 'vitest';
import { pointerTargetOf } from '../../activities/publisher';
import { buildGovernedRevision, decidedForPublication, publicationReason, publishableOf, type GovernanceSettings } from '../../core/governance';

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
