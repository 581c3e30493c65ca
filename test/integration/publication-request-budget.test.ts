import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkillStore, indexChangeFor, mapLimit, revisionLocatorKey, type SkillStore } from '../../storage';
import { decideRevision } from '../../client/approvals';
import { rollbackSkill } from '../../client/rollback';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { SkillRepository } from '../../client/skill-repository';
import { nextPointer, scopeKey as scopeKeyOf, type EvolutionConfig, type UsageSummary } from '../../core';
import { startCountingProxy, type CountingProxy } from '../../bench/support/s3-counting-proxy';
import { realServices, uniqueName } from '../support/infra';
import { holdRevision } from '../support/console';
import { distinctSkillName, sessionCreating } from '../support/publication';
import { startMainWorker, type RunningWorker } from '../support/worker';

// What one change costs in S3 requests does not grow with the scope: a new session's
// create + publish in a scope of 200 skills, its usage attribution and governance counters included. Request counts are exact (no timing); the
// benchmark (`npm run bench -- scale`) prints them at 1, 200 and 2,000 skills.
const SKILLS = 200;

let proxy: CountingProxy;
let w: RunningWorker;
let store: SkillStore;

beforeAll(async () => {
  const base = await realServices();
  proxy = await startCountingProxy(base.s3.endpoint!);
  const config: EvolutionConfig = {
    ...base,
    s3: { ...base.s3, endpoint: proxy.endpoint },
    governance: { ...base.governance, humanGate: 'none', approvalTimeoutMs: undefined, shadowMode: false },
  };
  w = await startMainWorker(config);
  store = createSkillStore(base.s3); // seeding and checks: not counted
});

afterAll(async () => {
  await w?.stop();
  await proxy?.close();
});

async function seed(scopeKey: string): Promise<void> {
  const changes = await mapLimit(
    Array.from({ length: SKILLS }, (_, i) => i),
    16,
    async (i) => {
      const skillId = distinctSkillName(scopeKey, i);
      const spec = { name: skillId, description: `Seeded skill ${i}`, when_to_use: 'tests', steps: ['one'], pitfalls: [] };
      const pointer = nextPointer(undefined, { skillId, revisionId: `seed-${i}`, managed: true, deleted: false, spec }, { opId: `seed/${i}`, at: '2026-01-01T00:00:00.000Z' });
      return indexChangeFor((await store.writeActive(scopeKey, skillId, pointer, null)).pointer);
    },
  );
  await store.applyScopeIndexChanges(scopeKey, changes);
}

/** Waits (reading around the proxy) until the scope's usage workflow has written what an operation adds: its burst belongs to the operation's count. */
async function usageCounted(scopeKey: string, done: (summary: UsageSummary | undefined) => boolean): Promise<void> {
  for (const deadline = Date.now() + 60_000; !done((await store.readUsage(scopeKey))?.summary) && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 100));
}

/** The requests of a new session's job that creates and publishes one skill, in a scope with an index or without one. */
const CREATE_AND_PUBLISH = {
  'GET payload': 1, // the segment (claim-checked by the client)
  'GET cursor': 1, // none yet: the session is new
  // The review's; the usage burst counts what the session was offered from that same snapshot (kept by the worker). It names the
  // version of what approvers rejected in the scope (none here): the rejections are read only when it names some this worker has not seen.
  'GET index': 1,
  'PUT cursor': 1, // with the reviewer's answer, so a retry of the step after a Temporal outage calls no model again
  // No locator: the job's outcome, keyed by the hash its revision ids carry, finds the revision by bare id.
  'PUT revision': 1,
  'PUT audit': 1, // the publication log entry
  'PUT pointer': 1,
  'PUT index': 1, // the scope's index workflow
  'PUT job-outcome': 1,
  // The scope's usage summary (the session's usage, the governance counters, the recent audit page): one
  // write per burst of its usage workflow, from the copy it wrote last (a new scope: create-only, no GET);
  // with many jobs finishing at once, one write counts them all.
  'PUT usage': 1,
};

describe('S3 requests per change', () => {
  it(`a new session's create + publish in a scope of ${SKILLS} skills costs 10 requests (1 of them the usage summary's write), and an agent's refresh after it one`, async () => {
    const app = uniqueName('budget');
    const scopeKey = scopeKeyOf({ mode: 'app', app });
    await seed(scopeKey);
    const repo = new SkillRepository(createSkillStore({ ...w.config.s3, endpoint: proxy.endpoint }), { mode: 'app', app });
    await repo.refresh();

    const before = proxy.snapshot();
    const started = await startLearningJob({ client: w.client, store, config: w.config }, { app, user: 'u', sessionId: 's', events: sessionCreating('request-budget-skill') });
    // Waiting reads the index around the proxy: the job's requests are counted, not the reader's.
    const out = await waitForLearningJob({ client: w.client, store }, started.jobWorkflowId, { timeoutMs: 120_000 });
    // The job's usage and governance counts are written by the scope's usage workflow after the job: waited for, so its requests are in the count.
    await usageCounted(scopeKey, (summary) => summary?.governance !== undefined);
    const cost = proxy.diff(before);
    expect(out.revisions).toMatchObject([{ action: 'create', status: 'active' }]);
    expect((await store.readUsage(scopeKey))?.summary).toMatchObject({ sessions: 1, governance: { counts: { revisionsWritten: 1, promoted: 1 } } });
    expect(cost.byClass).toEqual(CREATE_AND_PUBLISH);
    expect(cost.total).toBe(10);

    const [created] = out.revisions;
    expect(await store.objects.getText(revisionLocatorKey(created!.revisionId))).toBeUndefined();
    expect(await store.findRevision(created!.revisionId)).toMatchObject({ id: created!.revisionId, scopeKey, skillId: created!.skillId, status: 'active' });

    const refreshed = proxy.snapshot();
    expect(await repo.refresh()).toBe(true);
    expect(proxy.diff(refreshed).total).toBe(1);
    expect((await repo.load('request-budget-skill')).markdown).toContain('request-budget-skill');
  }, 180_000);

  it("a new scope's first job (user scopes: each user's first session) costs 10 requests too: creating the index and the usage summary reads nothing", async () => {
    const app = uniqueName('budget-new-scope');
    const scopeKey = scopeKeyOf({ mode: 'app', app });
    const before = proxy.snapshot();
    const started = await startLearningJob({ client: w.client, store, config: w.config }, { app, user: 'u', sessionId: 's', events: sessionCreating('new-scope-skill') });
    const out = await waitForLearningJob({ client: w.client, store }, started.jobWorkflowId, { timeoutMs: 120_000 });
    await usageCounted(scopeKey, (summary) => summary?.governance !== undefined);
    const cost = proxy.diff(before);
    expect(out.revisions).toMatchObject([{ action: 'create', status: 'active' }]);
    // The index's GET finds none, and the worker's index workflow creates it create-only. A new index names no rejections without
    // reading them (a rejection creates its scope's index); the usage summary is created create-only too.
    expect(cost.byClass).toEqual(CREATE_AND_PUBLISH);
    expect(cost.total).toBe(10);
    expect(await store.readScopeIndex(scopeKey)).toMatchObject({ index: { skills: [{ name: 'new-scope-skill' }], rejections: 0 } });
  }, 180_000);

  it('an approval reads the held revision once to publish it and once to record the decision', async () => {
    const app = uniqueName('budget-approval');
    const scope = { mode: 'app' as const, app };
    const scopeKey = scopeKeyOf(scope);
    await seed(scopeKey);
    const skillId = distinctSkillName(scopeKey, 0);
    const parent = (await store.readActive(scopeKey, skillId))!.pointer;
    const spec = { ...parent.spec!, steps: ['one', 'two'] };
    const held = await holdRevision(w, store, scope, spec, { parentId: parent.revisionId });

    const before = proxy.snapshot();
    // The client's own reads (the approver's side) go around the proxy: the worker's requests are counted.
    await decideRevision({ client: w.client, store }, held.revisionId, { decision: 'approve', reviewer: 'budget' });
    await usageCounted(scopeKey, (summary) => summary?.governance?.counts.humanApproved === 1);
    const cost = proxy.diff(before);
    expect(await store.findRevision(held.revisionId)).toMatchObject({ status: 'active', human: { decision: 'approved', reviewer: 'budget' } });
    expect(cost.byClass).toEqual({
      'GET revision': 2, // what is published, and the read of the decision's conditional write
      'PUT revision': 1, // the decision
      'GET pointer': 1, // an update: the pointer it moves
      'PUT audit': 1, // the publication log entry
      'PUT pointer': 1,
      'GET index': 1, // the scope's index workflow starts with this approval (the test seeded the index directly) and reads it once
      'PUT index': 1,
      'PUT usage': 1,
    });
    expect(cost.total).toBe(9);
  }, 180_000);

  it("a rollback reads the skill's pointer once, for its listing and for the move: 8 requests", async () => {
    const scope = { mode: 'app' as const, app: uniqueName('budget-rollback') };
    const scopeKey = scopeKeyOf(scope);
    const skillId = 'rollback-budget-skill';
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
    const published = async (version: number) => {
      const spec = { name: skillId, description: `version ${version}`, when_to_use: 'tests', steps: [`step ${version}`], pitfalls: [] };
      const id = uniqueName(`rev-v${version}`);
      const when = at(version);
      const action = version === 1 ? ('create' as const) : ('update' as const);
      await store.createRevision({
        id,
        skillId,
        scopeKey,
        scope,
        action,
        status: 'active',
        spec,
        source: 'reviewer',
        jobId: `seed/${id}`,
        createdAt: when,
        updatedAt: when,
        promotedAt: when,
      });
      return { target: { skillId, revisionId: id, managed: true, deleted: false, spec }, op: { opId: `seed/${id}`, at: when } };
    };
    const v1 = await published(1);
    const v2 = await published(2);
    const first = await store.writeActive(scopeKey, skillId, nextPointer(undefined, v1.target, v1.op), null);
    const second = await store.writeActive(scopeKey, skillId, nextPointer(first.pointer, v2.target, v2.op), first.etag);
    await store.applyScopeIndexChanges(scopeKey, [indexChangeFor(second.pointer)]);

    const before = proxy.snapshot();
    const rolledBack = await rollbackSkill({ client: w.client, config: w.config }, { scopeKey, skillId, reviewer: 'budget' });
    await usageCounted(scopeKey, (summary) => summary?.recentEvents?.some((e) => e.action === 'rollback') === true);
    const cost = proxy.diff(before);
    expect(rolledBack).toMatchObject({ restoredRevisionId: v1.target.revisionId, archivedRevisionId: v2.target.revisionId });
    expect((await store.readActive(scopeKey, skillId))?.pointer.revisionId).toBe(v1.target.revisionId);
    expect(cost.byClass).toEqual({
      'GET pointer': 1, // read once: the listing's statuses and the move's first try decide on it
      'GET list': 1, // the skill's revisions
      'GET revision': 2,
      'PUT audit': 1, // the publication log entry
      'PUT pointer': 1,
      'GET index': 1, // the scope's index workflow starts with this rollback (the test seeded the index directly) and reads it once
      'PUT index': 1,
      'PUT usage': 1,
    });
    expect(cost.total).toBe(9);
  }, 180_000);
});
