import { describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { rollbackSkill } from '../../client/rollback';
import { SkillRepository } from '../../client/skill-repository';
import type { SessionEvent } from '../../core';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

const fx = useMainWorker({ humanGate: 'always' });
const SKILL = 'multi-city-weather-report';

describe('an approved delete', () => {
  it('clears the pointer (tombstone), removes it from what agents load, and can be rolled back', async () => {
    const app = uniqueName('del');
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const created = await startLearningJob(deps, { app, user: 'u', sessionId: 's', events: exampleSession('weather-report') });
    const v1 = (await waitForLearningJob(fx.w, created.jobWorkflowId)).revisions[0]!;
    await decideRevision(deps, v1.revisionId, { decision: 'approve', reviewer: 'alice' });
    const repo = new SkillRepository(fx.store, { mode: 'app', app });
    expect((await repo.list()).map((s) => s.name)).toEqual([SKILL]);

    const complaint: SessionEvent[] = [
      { role: 'user', content: 'Give me the weather report for Oslo.' },
      { role: 'assistant', content: 'Oslo: 3 degrees.' },
      { role: 'user', content: `No, that procedure is wrong and outdated, remove it. [[delete:${SKILL}]]` },
    ];
    const deleting = await startLearningJob(deps, { app, user: 'u', sessionId: 's2', events: complaint });
    const outcome = await waitForLearningJob(fx.w, deleting.jobWorkflowId);
    expect(outcome.revisions).toHaveLength(1);
    const del = outcome.revisions[0]!;
    expect(del).toMatchObject({ action: 'delete', status: 'pending_approval', skillId: v1.skillId });
    await repo.refresh();
    expect((await repo.load(SKILL)).revisionId).toBe(v1.revisionId); // held: nothing changed yet

    const approved = await decideRevision(deps, del.revisionId, { decision: 'approve', reviewer: 'alice', comment: 'obsolete' });
    expect(approved.finalStatus).toBe('active');
    const pointer = await fx.store.readActive(created.scopeKey, v1.skillId);
    expect(pointer?.pointer).toMatchObject({ deleted: true, revisionId: del.revisionId });
    await repo.refresh();
    expect(await repo.list()).toEqual([]);
    expect((await fx.store.findRevision(v1.revisionId))?.status).toBe('archived'); // derived from the pointer
    expect((await fx.store.listAudit(created.scopeKey, v1.skillId)).map((e) => e.action)).toContain('delete');

    const back = await rollbackSkill({ client: fx.w.client, config: fx.w.config }, { scopeKey: created.scopeKey, skillId: v1.skillId, reviewer: 'alice' });
    expect(back.restoredRevisionId).toBe(v1.revisionId);
    await repo.refresh();
    expect((await repo.load(SKILL)).revisionId).toBe(v1.revisionId);
  });
});
