import { describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { SkillRepository } from '../../client/skill-repository';
import { SkillLoadTool } from '../../client/skill-load-tool';
import { skillLoadMarker } from '../../core/usage';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

const fx = useMainWorker({ humanGate: 'create_only' });

describe('session → held revision → approval → published skill', () => {
  it('holds a new skill, publishes it on approval, and serves it through the repository and skill_load', async () => {
    const app = uniqueName('app');
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const started = await startLearningJob(deps, { app, user: 'u1', sessionId: 's1', events: exampleSession('weather-report') });
    const outcome = await waitForLearningJob(fx.w, started.jobWorkflowId);
    expect(outcome.status).toBe('reviewed');
    expect(outcome.cursorAdvanced).toBe(true);
    expect(outcome.revisions).toHaveLength(1);
    const [rev] = outcome.revisions;
    expect(rev).toMatchObject({ action: 'create', status: 'pending_approval', name: 'multi-city-weather-report' });

    // Invariant 1: a candidate changes nothing agents load.
    const repo = new SkillRepository(fx.store, { mode: 'app', app });
    expect(await repo.list()).toEqual([]);

    const result = await decideRevision(deps, rev!.revisionId, { decision: 'approve', reviewer: 'alice', comment: 'looks right' });
    expect(result).toMatchObject({ decision: 'approved', reviewer: 'alice', finalStatus: 'active' });

    expect(await repo.refresh()).toBe(true);
    const skills = await repo.list();
    expect(skills.map((s) => s.name)).toEqual(['multi-city-weather-report']);
    const loaded = await repo.load('multi-city-weather-report');
    expect(loaded.markdown).toContain('name: "multi-city-weather-report"');
    expect(loaded.markdown).toContain('get_weather');
    const tool = new SkillLoadTool(repo);
    expect((await tool.definition()).function.description).toContain('multi-city-weather-report');
    // The revision loaded is named first, for usage attribution; the SKILL.md follows.
    expect(await tool.handle(JSON.stringify({ name: 'multi-city-weather-report' }))).toBe(`${skillLoadMarker(loaded)}\n${loaded.markdown}`);
    expect(await repo.refresh()).toBe(false); // nothing new: a 304

    // Deciding again is a clear error.
    await expect(decideRevision(deps, rev!.revisionId, { decision: 'reject', reviewer: 'bob' })).rejects.toThrow(/not waiting for approval: it is active by alice/);
    const audit = await fx.store.listAudit(started.scopeKey, rev!.skillId);
    expect(audit.map((e) => e.action)).toEqual(['write_revision', 'hold', 'approve']);
  });
});
