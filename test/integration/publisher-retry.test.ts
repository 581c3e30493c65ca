import { beforeAll, describe, expect, it } from 'vitest';
import { publisherActivities } from '../../activities/publisher';
import { recordActivities } from '../../activities/record';
import { createSkillStore, type SkillStore } from '../../activities/storage';
import { buildGovernedRevision, type GovernanceSettings } from '../../core/governance';
import { revisionIdFor, scopeKey as scopeKeyOf, type SkillSpec } from '../../core';
import { realServices, uniqueName } from '../support/infra';

// Temporal retries an activity whose first attempt may have finished its work: the
// publisher must recognise its own earlier work and never undo a newer publication.
let store: SkillStore;
const governance: GovernanceSettings = { humanGate: 'none', shadowMode: false, minToolCalls: 4, effectivenessThreshold: 0.8 };

beforeAll(async () => {
  store = createSkillStore((await realServices(['s3'])).s3);
});

function spec(version: number): SkillSpec {
  return { name: 'retry-skill', description: `version ${version}`, when_to_use: 'when testing retries', steps: ['look', `apply v${version}`], pitfalls: [] };
}

async function storedRevision(app: string, jobId: string, version: number, parentId?: string) {
  const scope = { mode: 'app' as const, app };
  const rev = buildGovernedRevision(
    { candidate: { action: version === 1 ? 'create' : 'update', source: 'reviewer', spec: spec(version), targetName: 'retry-skill' }, revisionId: revisionIdFor(jobId, 0), skillId: 'retry-skill', parentId, jobId, scope, scopeKey: scopeKeyOf(scope), reason: `v${version}` },
    { existing: [], governance, at: `2026-11-29T10:0${version}:00.000Z` },
  );
  await recordActivities({ store }).recordRevision({ revision: rev });
  return { scopeKey: rev.scopeKey, skillId: rev.skillId, revisionId: rev.id };
}

describe('publisher under activity retries', () => {
  it('a retried publication of a revision that was since superseded does not move the pointer back', async () => {
    const app = uniqueName('retry');
    const { publishRevision } = publisherActivities({ store });
    const a = await storedRevision(app, uniqueName('job'), 1);
    const b = await storedRevision(app, uniqueName('job'), 2);
    const publishA = { revision: a, actor: 'evolution', reason: 'all gates passed', at: '2026-11-29T11:00:00.000Z', auditAction: 'promote' as const };
    expect(await publishRevision(publishA)).toEqual({ status: 'active', outcome: 'published' });
    await publishRevision({ ...publishA, revision: b, at: '2026-11-29T11:05:00.000Z' });

    const retried = await publishRevision(publishA); // the same input: a retry of the first attempt
    expect(retried).toEqual({ status: 'archived', outcome: 'published' });
    expect((await store.readActive(a.scopeKey, a.skillId))?.pointer.revisionId).toBe(b.revisionId);
    expect((await store.readRevision(a.scopeKey, a.skillId, a.revisionId))?.status).toBe('archived');
    expect((await store.readRevision(b.scopeKey, b.skillId, b.revisionId))?.status).toBe('active');
    const promotes = (await store.listAudit(a.scopeKey, a.skillId)).filter((e) => e.action === 'promote');
    expect(promotes.map((e) => e.revisionId)).toEqual([a.revisionId, b.revisionId]);
  });

  it('a retried stale-parent rejection completes with stale_parent and one audit event', async () => {
    const app = uniqueName('stale');
    const { publishRevision } = publisherActivities({ store });
    const v1 = await storedRevision(app, uniqueName('job'), 1);
    await publishRevision({ revision: v1, actor: 'evolution', reason: 'all gates passed', at: '2026-11-29T11:00:00.000Z', auditAction: 'promote' });
    const v2 = await storedRevision(app, uniqueName('job'), 2, 'rev-some-older-parent');
    const input = { revision: v2, actor: 'maria', reason: 'approved', at: '2026-11-29T12:00:00.000Z', auditAction: 'approve' as const, requireParentId: 'rev-some-older-parent' };
    expect(await publishRevision(input)).toEqual({ status: 'rejected', outcome: 'stale_parent' });
    expect(await publishRevision(input)).toEqual({ status: 'rejected', outcome: 'stale_parent' });
    expect((await store.readActive(v1.scopeKey, v1.skillId))?.pointer.revisionId).toBe(v1.revisionId);
    const stale = (await store.listAudit(v2.scopeKey, v2.skillId)).filter((e) => e.action === 'stale_parent');
    expect(stale).toHaveLength(1);
  });
});
