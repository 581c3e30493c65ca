import { beforeAll, describe, expect, it } from 'vitest';
import { learningRevisionIdFor, revisionIdFor, scopeKey as scopeKeyOf, type Revision, type RevisionStatus } from '../../core';
import { revisionSummary } from '../../core/governance';
import {
  IllegalTransitionError,
  InvalidStorageRequestError,
  NotFoundError,
  PreconditionConflictError,
  createSkillStore,
  legacyJobOutcomeKey,
  revisionLocatorKey,
  type SkillStore,
} from '../../storage';
import { realServices, uniqueName } from '../support/infra';
import { reviewedOutcomeBefore } from '../support/job-outcome';

let store: SkillStore;

beforeAll(async () => {
  const cfg = await realServices(['s3']);
  store = createSkillStore(cfg.s3);
});

function newScope() {
  const scope = { mode: 'app' as const, app: uniqueName('app') };
  return { scope, sk: scopeKeyOf(scope) };
}

function revision(sk: string, scope: { mode: 'app'; app: string }, skillId: string, overrides: Partial<Revision> = {}): Revision {
  const at = '2026-11-29T10:00:00.000Z';
  return {
    id: uniqueName('rev'),
    skillId,
    scopeKey: sk,
    scope,
    action: 'create',
    status: 'pending',
    spec: { name: skillId, description: 'Plan a multi-city trip', when_to_use: 'travel', steps: ['look up'], pitfalls: [] },
    source: 'reviewer',
    jobId: 'job-1',
    reason: '',
    gates: [],
    shadowBypassed: false,
    createdAt: at,
    updatedAt: at,
    history: [],
    ...overrides,
  };
}

const ref = (r: Revision) => ({ scopeKey: r.scopeKey, skillId: r.skillId, revisionId: r.id });

describe('revisions', () => {
  it('are create-only: same content is idempotent, different content a non-retryable conflict', async () => {
    const { scope, sk } = newScope();
    const rev = revision(sk, scope, 'weather');
    expect(await store.createRevision(rev)).toEqual(rev);
    expect(await store.createRevision({ ...rev, updatedAt: '2026-11-29T11:00:00Z' })).toEqual(rev); // retried activity
    const err = await store.createRevision({ ...rev, spec: { ...rev.spec!, steps: ['other'] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PreconditionConflictError);
    expect(err).toMatchObject({ retryable: false, condition: { ifNoneMatch: '*' } });
    expect((err as Error).message).toMatch(/already exists .* with different content/);
    expect(await store.readRevision(sk, 'weather', rev.id)).toEqual(rev);
  });

  it('refuses a revision whose scopeKey does not match its scope, or that fails the schema', async () => {
    const { scope } = newScope();
    const other = newScope();
    await expect(store.createRevision(revision(other.sk, scope, 'weather'))).rejects.toBeInstanceOf(InvalidStorageRequestError);
    const invalid = await store.createRevision({ ...revision(newScope().sk, scope, 'weather'), status: 'live' as never }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InvalidStorageRequestError);
    expect((invalid as Error).message).toMatch(/^invalid revision rev-[0-9a-f]{8}: status: /);
  });

  it('a retried create after the revision moved on still succeeds and returns the stored one', async () => {
    const { scope, sk } = newScope();
    const rev = revision(sk, scope, 'weather');
    await store.createRevision(rev);
    const held = await store.transitionRevision(ref(rev), { to: 'pending_approval', reason: 'human gate', at: '2026-11-29T10:01:00Z' });
    expect(await store.createRevision(rev)).toEqual(held);
  });

  it('concurrent creates of one revision: all succeed, one object', async () => {
    const { scope, sk } = newScope();
    const rev = revision(sk, scope, 'weather');
    const results = await Promise.all(Array.from({ length: 10 }, () => store.createRevision(rev)));
    for (const r of results) expect(r).toEqual(rev);
    expect(await store.listRevisions(sk, 'weather')).toEqual([rev]);
  });

  it('ids are global: findRevision needs no scope, and an id cannot be reused elsewhere', async () => {
    const a = newScope();
    const b = newScope();
    const rev = revision(a.sk, a.scope, 'weather');
    await store.createRevision(rev);
    expect(await store.findRevision(rev.id)).toEqual(rev);
    expect(await store.findRevision(uniqueName('nope'))).toBeUndefined();
    const elsewhere = await store.createRevision({ ...rev, scopeKey: b.sk, scope: b.scope }).catch((e: unknown) => e);
    expect(elsewhere).toBeInstanceOf(PreconditionConflictError);
    expect((elsewhere as Error).message).toMatch(`revision id ${rev.id} already belongs to skill weather in ${a.sk}`);
    expect(await store.listRevisions(b.sk, 'weather')).toEqual([]);
  });

  it("a learning job's revision written without a locator is found by bare id through its job's outcome, once that is recorded", async () => {
    const { scope, sk } = newScope();
    const jobId = `learning/${sk}/${uniqueName('session')}/seg-1`;
    const first = revision(sk, scope, 'weather', { id: learningRevisionIdFor(sk, jobId, 0), jobId });
    const last = revision(sk, scope, 'packing', { id: learningRevisionIdFor(sk, jobId, 1), jobId });
    await store.createRevision(first);
    await store.createRevision(last, { locatedByJobOutcome: true });
    expect(await store.objects.getText(revisionLocatorKey(last.id))).toBeUndefined();
    expect(await store.findRevision(last.id)).toBeUndefined(); // its outcome is the activity's next write
    const outcome = reviewedOutcomeBefore(jobId, sk, { revisions: [revisionSummary(first, first.status), revisionSummary(last, last.status)] });
    await store.writeJobOutcome(outcome, '2026-11-29T10:00:01.000Z');
    expect(await store.findRevision(last.id)).toEqual(last);
    expect(await store.findRevision(first.id)).toEqual(first);
    expect(await store.readJobOutcome(sk, jobId)).toEqual({ ...outcome, recordedAt: '2026-11-29T10:00:01.000Z' });
    // Only ids learningRevisionIdFor makes can be located that way.
    const other = await store.createRevision(revision(sk, scope, 'weather'), { locatedByJobOutcome: true }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(InvalidStorageRequestError);
    expect((other as Error).message).toMatch(/is not a learning job's revision id/);
  });

  it('outcomes and learning revisions stored before outcomes were keyed by job tag are still found (beside their scope; by locator)', async () => {
    const { scope, sk } = newScope();
    const jobId = `learning/${sk}/${uniqueName('session')}/seg-1`;
    const rev = revision(sk, scope, 'weather', { id: revisionIdFor(jobId, 0), jobId }); // the id shape learning jobs used then
    await store.createRevision(rev); // with its locator, as every revision was
    const outcome = { ...reviewedOutcomeBefore(jobId, sk), recordedAt: '2026-11-29T10:00:01.000Z' };
    await store.objects.put(legacyJobOutcomeKey(sk, jobId), outcome);
    expect(await store.readJobOutcome(sk, jobId)).toEqual(outcome);
    expect(await store.findRevision(rev.id)).toEqual(rev);
  });

  it('list oldest first, per skill, by status, and the skills of a scope', async () => {
    const { scope, sk } = newScope();
    const times = ['2026-11-29T10:00:03Z', '2026-11-29T10:00:01Z', '2026-11-29T10:00:02Z'];
    const weather = times.map((t) => revision(sk, scope, 'weather', { createdAt: t, updatedAt: t }));
    const flights = revision(sk, scope, 'flights', { createdAt: '2026-11-29T09:00:00Z' });
    await Promise.all([...weather, flights].map((r) => store.createRevision(r)));
    await store.transitionRevision(ref(weather[0]), { to: 'pending_approval', reason: 'hold', at: '2026-11-29T10:05:00Z' });
    await store.transitionRevision(ref(flights), { to: 'pending_eval', reason: 'eval', at: '2026-11-29T10:05:00Z' });

    expect((await store.listRevisions(sk, 'weather')).map((r) => r.createdAt)).toEqual([...times].sort());
    expect(await store.listSkillIds(sk)).toEqual(['flights', 'weather']);
    const pending = await store.listRevisionsByStatus(sk, ['pending_approval', 'pending_eval']);
    expect(pending.map((r) => [r.id, r.status])).toEqual([
      [flights.id, 'pending_eval'],
      [weather[0].id, 'pending_approval'],
    ]);
    expect(await store.listRevisionsByStatus(sk, ['active'])).toEqual([]);
  });
});

describe('revision transitions', () => {
  it('legal moves append history; already there is a no-op; illegal moves are non-retryable', async () => {
    const { scope, sk } = newScope();
    const rev = await store.createRevision(revision(sk, scope, 'weather'));
    const held = await store.transitionRevision(ref(rev), {
      to: 'pending_approval',
      reason: 'human gate: create',
      at: '2026-11-29T10:01:00Z',
      patch: { gates: [{ gate: 'spec', ran: true, passed: true, held: false, reasons: [] }], human: { held: true, reasons: ['create'] } },
    });
    expect(held.status).toBe('pending_approval');
    expect(held.gates).toHaveLength(1);
    expect(held.history).toEqual([{ from: 'pending', to: 'pending_approval', at: '2026-11-29T10:01:00Z', reason: 'human gate: create' }]);

    const again = await store.transitionRevision(ref(rev), { to: 'pending_approval', reason: 'retry', at: '2026-11-29T10:09:00Z' });
    expect(again).toEqual(held);

    const active = await store.transitionRevision(ref(rev), { to: 'active', reason: 'approved by ana', at: '2026-11-29T10:02:00Z' });
    expect(active).toMatchObject({ status: 'active', promotedAt: '2026-11-29T10:02:00Z', updatedAt: '2026-11-29T10:02:00Z' });

    const err = await store.transitionRevision(ref(rev), { to: 'rejected', reason: 'late reject', at: '2026-11-29T10:03:00Z' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IllegalTransitionError);
    expect(err).toMatchObject({ retryable: false });
    expect((err as Error).message).toBe(`revision ${rev.id} cannot move from active to rejected (allowed from active: archived)`);

    await store.transitionRevision(ref(rev), { to: 'archived', reason: 'superseded', at: '2026-11-29T10:04:00Z' });
    // A late retry of the "→ active" step must not resurrect it: its history entry proves it was done.
    const late = await store.transitionRevision(ref(rev), { to: 'active', reason: 'approved by ana', at: '2026-11-29T10:02:00Z' });
    expect(late.status).toBe('archived');
    // A rollback is a new decision (new time and reason), and archived → active is legal.
    const rolledBack = await store.transitionRevision(ref(rev), { to: 'active', reason: 'rollback', at: '2026-11-29T10:06:00Z' });
    expect(rolledBack.history.map((h) => `${h.from}>${h.to}`)).toEqual(['pending>pending_approval', 'pending_approval>active', 'active>archived', 'archived>active']);
    // Content never changed.
    expect(rolledBack.spec).toEqual(rev.spec);
  });

  it('rejected is terminal', async () => {
    const { scope, sk } = newScope();
    const rev = await store.createRevision(revision(sk, scope, 'weather'));
    await store.transitionRevision(ref(rev), { to: 'rejected', reason: 'safety', at: '2026-11-29T10:01:00Z' });
    const statuses: RevisionStatus[] = ['pending', 'pending_eval', 'pending_approval', 'active', 'archived'];
    for (const to of statuses) {
      await expect(store.transitionRevision(ref(rev), { to, reason: 'x', at: '2026-11-29T10:02:00Z' })).rejects.toBeInstanceOf(IllegalTransitionError);
    }
  });

  it('concurrent transitions of one revision: exactly one history entry each, none lost', async () => {
    const { scope, sk } = newScope();
    const rev = await store.createRevision(revision(sk, scope, 'weather'));
    // Ten workers race the same approval (a retried activity on many nodes).
    const results = await Promise.all(Array.from({ length: 10 }, () => store.transitionRevision(ref(rev), { to: 'active', reason: 'approved', at: '2026-11-29T10:01:00Z' })));
    for (const r of results) expect(r.status).toBe('active');
    const stored = await store.readRevision(sk, 'weather', rev.id);
    expect(stored?.history).toEqual([{ from: 'pending', to: 'active', at: '2026-11-29T10:01:00Z', reason: 'approved' }]);
  });

  it('a missing revision is NotFound', async () => {
    const { sk } = newScope();
    await expect(store.transitionRevision({ scopeKey: sk, skillId: 'x', revisionId: 'nope' }, { to: 'active', reason: 'x', at: '2026-11-29T10:00:00Z' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('audit', () => {
  it('appends are idempotent and listed in time order', async () => {
    const { sk } = newScope();
    const event = (id: string, at: string) => ({ id, at, action: 'promote' as const, skillId: 'weather', scopeKey: sk, revisionId: 'r1', reason: id });
    const events = [
      event('e3', '2026-11-29T10:00:02.500Z'),
      event('e1', '2026-11-29T09:59:59.999Z'),
      event('e2', '2026-11-29T10:00:02.050Z'),
      event('e0', '2026-11-28T23:00:00+02:00'),
    ];
    const first = await Promise.all(events.map((e) => store.appendAudit(e)));
    expect(first.every((r) => r.written)).toBe(true);
    const retried = await Promise.all([...events, ...events].map((e) => store.appendAudit(e)));
    expect(retried.every((r) => !r.written)).toBe(true);
    const listed = await store.listAudit(sk, 'weather');
    expect(listed.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(listed[0]).toEqual({ ...events[3], actor: 'system', status: undefined });
    expect(first[0].key).toMatch(new RegExp(`^scopes/${sk}/skills/weather/audit/2026-11-29T10-00-02\\.500Z-e3\\.json$`));
  });
});
