import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { NotFoundError } from '../../core/errors';
import { SkillRepository } from '../../client/skill-repository';
import type { Scope } from '../../core';
import { uniqueName } from '../support/infra';
import { expectPublished } from '../support/published';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

const fx = useMainWorker({ humanGate: 'none' });

const SKILL = 'multi-city-weather-report';

async function learnAs(app: string, user: string) {
  const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
  const started = await startLearningJob(deps, { app, user, sessionId: 's1', scopeMode: 'user', events: exampleSession('weather-report') });
  expect(started.scopeKey).toBe(`users/${app}/${user}`);
  return { started, outcome: await waitForLearningJob(fx.w, started.jobWorkflowId, { timeoutMs: 60_000 }) };
}

describe("scope mode 'user'", () => {
  it("user A's published skill is invisible to user B (user, app and global scopes), visible to A; B learns its own", async () => {
    const app = uniqueName('app');
    const a = await learnAs(app, 'A');
    expect(a.outcome.revisions).toMatchObject([{ action: 'create', status: 'active', name: SKILL }]);
    const scopeA: Scope = { mode: 'user', app, user: 'A' };
    const scopeB: Scope = { mode: 'user', app, user: 'B' };
    await expectPublished(fx.store, { ...scopeA, key: a.started.scopeKey }, SKILL, a.outcome.revisions[0]!.revisionId);

    const repoA = new SkillRepository(fx.store, scopeA);
    expect((await repoA.list()).map((s) => [s.name, s.scopeKey])).toEqual([[SKILL, `users/${app}/A`]]);
    const repoB = new SkillRepository(fx.store, scopeB);
    expect(await repoB.list()).toEqual([]);
    await expect(repoB.load(SKILL)).rejects.toThrow(NotFoundError);
    // Nor does the skill leak into the broader scopes an agent of B also reads.
    const repoBWide = new SkillRepository(fx.store, [scopeB, { mode: 'app', app }, { mode: 'none' }]);
    // (global is shared with other tests, so look for A's revision, not the name)
    expect((await repoBWide.list()).filter((s) => s.revisionId === a.outcome.revisions[0]!.revisionId || s.scopeKey === `apps/${app}`)).toEqual([]);
    expect(await fx.store.readActive(`apps/${app}`, SKILL)).toBeUndefined();

    // B's identical session does not see A's skill as existing: B gets its own create.
    const b = await learnAs(app, 'B');
    expect(b.outcome.revisions).toMatchObject([{ action: 'create', status: 'active', name: SKILL }]);
    expect(b.outcome.revisions[0]!.revisionId).not.toBe(a.outcome.revisions[0]!.revisionId);
    expect(await repoB.refresh()).toBe(true);
    expect((await repoB.list()).map((s) => [s.name, s.scopeKey, s.revisionId])).toEqual([[SKILL, `users/${app}/B`, b.outcome.revisions[0]!.revisionId]]);

    // A is untouched by B's publication.
    await expectPublished(fx.store, { ...scopeA, key: a.started.scopeKey }, SKILL, a.outcome.revisions[0]!.revisionId);
    expect(await repoA.refresh()).toBe(false);
    expect((await fx.store.listRevisions(a.started.scopeKey, SKILL)).map((r) => r.id)).toEqual([a.outcome.revisions[0]!.revisionId]);
  });
});
