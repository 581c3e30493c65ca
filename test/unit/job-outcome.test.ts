import { describe, expect, it } from 'vitest';
import { buildGovernedRevision, outcomeLocates, outcomeWithRevision, revisionSummary, type GovernanceSettings } from '../../core/governance';
import { learningRevisionIdFor, revisionIdFor } from '../../core/learning';
import { reviewedOutcomeBefore } from '../support/job-outcome';

const governance: GovernanceSettings = { humanGate: 'none', shadowMode: false, minToolCalls: 4, effectivenessThreshold: 0.8 };

function gated(name: string, humanGate: GovernanceSettings['humanGate'] = 'none') {
  return buildGovernedRevision(
    {
      candidate: {
        action: 'create',
        source: 'reviewer',
        spec: { name, description: 'Summarises what a job did', when_to_use: 'when testing job outcomes', steps: ['look', 'apply'], pitfalls: [] },
        targetName: name,
      },
      revisionId: `rev-${name}`,
      skillId: name,
      jobId: 'job-outcome',
      scope: { mode: 'app', app: 'a' },
      scopeKey: 'apps/a',
      reason: 'r',
    },
    { existing: [], governance: { ...governance, humanGate }, at: '2026-12-03T10:00:00.000Z' },
  );
}

const before = reviewedOutcomeBefore('job-outcome', 'apps/a', { dropped: [{ name: 'dup', list: 'creates', reason: 'duplicate' }] });

describe('revisionSummary', () => {
  it('names the revision by its spec, in the status the job left it, with the gate and human reasons', () => {
    const held = gated('held-skill', 'always');
    expect(revisionSummary(held, 'pending_approval')).toEqual({
      revisionId: 'rev-held-skill',
      skillId: 'held-skill',
      name: 'held-skill',
      action: 'create',
      status: 'pending_approval',
      shadowBypassed: false,
      reasons: held.gates.flatMap((g) => g.reasons).concat(held.human?.reasons ?? []),
    });
    expect(held.human?.reasons.length).toBeGreaterThan(0);
  });

  it('carries the index seq of a publication, and none otherwise', () => {
    expect(revisionSummary(gated('published-skill'), 'active', 7)).toMatchObject({ status: 'active', indexSeq: 7 });
    expect(revisionSummary(gated('published-skill'), 'active')).not.toHaveProperty('indexSeq');
  });
});

describe('outcomeWithRevision', () => {
  it("adds the last write's revision after those the job handled before, leaving the rest of the outcome and its input as they were", () => {
    const first = outcomeWithRevision(before, gated('first-skill', 'always'), 'pending_approval');
    const both = outcomeWithRevision(first, gated('second-skill'), 'active', 3);
    expect(both).toEqual({ ...before, revisions: [revisionSummary(gated('first-skill', 'always'), 'pending_approval'), revisionSummary(gated('second-skill'), 'active', 3)] });
    expect(before.revisions).toEqual([]);
    expect(first.revisions).toHaveLength(1);
  });
});

describe('outcomeLocates', () => {
  const job = { scopeKey: 'apps/shop', jobId: 'learning/apps/shop/s1/seg-1' };
  it("is true for the job's own learning revision ids only", () => {
    expect(outcomeLocates(job, learningRevisionIdFor(job.scopeKey, job.jobId, 0))).toBe(true);
    expect(outcomeLocates(job, learningRevisionIdFor(job.scopeKey, job.jobId, 3))).toBe(true);
    expect(outcomeLocates(job, learningRevisionIdFor(job.scopeKey, 'learning/apps/shop/s1/seg-2', 0))).toBe(false);
    expect(outcomeLocates(job, learningRevisionIdFor('apps/other', job.jobId, 0))).toBe(false);
    // Ids of other shapes (those of learning jobs before the tags included) are found by their locators.
    expect(outcomeLocates(job, revisionIdFor(job.jobId, 0))).toBe(false);
    expect(outcomeLocates(job, 'external-0123456789abcdef01234567')).toBe(false);
  });
});
