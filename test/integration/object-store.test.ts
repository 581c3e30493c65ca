import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { isSafeSegment, scopeKey as scopeKeyOf, type Dataset } from '../../core';
import type { ReviewDecision } from '../../core/schemas/review';
import {
  CorruptObjectError,
  InvalidStorageRequestError,
  NotFoundError,
  PayloadIntegrityError,
  PreconditionConflictError,
  auditKey,
  cursorKey,
  checkedScopeKey,
  createSkillStore,
  payloadKey,
  putOnce,
  revisionKey,
  scopePrefix,
  sortableTime,
  type SkillStore,
} from '../../storage';
import { mapLimit } from '../../core/concurrency';
import { realServices, uniqueName } from '../support/infra';
import { z } from 'zod';

let store: SkillStore;

beforeAll(async () => {
  const cfg = await realServices(['s3']);
  store = createSkillStore(cfg.s3);
});

const appScope = () => ({ mode: 'app' as const, app: uniqueName('app') });

describe('object store (generic)', () => {
  it('create-only, If-Match and plain writes; a failed condition is a typed conflict', async () => {
    const key = `tests/${uniqueName('obj')}/thing.json`;
    const first = await store.objects.putCreateOnly(key, { n: 1 });
    const again = await store.objects.putCreateOnly(key, { n: 2 }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(PreconditionConflictError);
    expect(again).toMatchObject({ key, condition: { ifNoneMatch: '*' }, retryable: false });

    const second = await store.objects.putIfMatch(key, { n: 3 }, first.etag);
    const stale = await store.objects.putIfMatch(key, { n: 4 }, first.etag).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(PreconditionConflictError);
    expect(stale).toMatchObject({ key, condition: { ifMatch: first.etag }, retryable: true });

    expect(await store.objects.getJson(key, z.object({ n: z.number() }))).toEqual({ value: { n: 3 }, etag: second.etag });
    await store.objects.put(key, { n: 5 });
    expect((await store.objects.getJson(key, z.object({ n: z.number() })))?.value).toEqual({ n: 5 });
    expect(await store.objects.exists(key)).toBe(true);
    await store.objects.delete(key);
    await store.objects.delete(key); // idempotent
    expect(await store.objects.exists(key)).toBe(false);
    expect(await store.objects.getJson(key, z.unknown())).toBeUndefined();
    expect(await store.objects.getText(key)).toBeUndefined();
  });

  it('putOnce: a repeated create-only write of the same value succeeds, another value is a non-retryable conflict', async () => {
    const key = `tests/${uniqueName('obj')}/once.json`;
    const schema = z.object({ n: z.number(), note: z.string().optional() });
    const opts = { schema, conflict: (stored: { n: number }) => `holds n=${stored.n}` };
    expect(await putOnce(store.objects, key, { n: 1 }, opts)).toEqual({ n: 1 });
    expect(await putOnce(store.objects, key, { n: 1 }, opts)).toEqual({ n: 1 });
    const other = await putOnce(store.objects, key, { n: 2 }, opts).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(PreconditionConflictError);
    expect(other).toMatchObject({ key, retryable: false, message: 'holds n=1' });
    // `same` decides what counts as this write (here: n only); the stored value is returned.
    expect(await putOnce(store.objects, key, { n: 1, note: 'retry' }, { ...opts, same: (a, b) => a.n === b.n })).toEqual({ n: 1 });
    expect((await store.objects.getJson(key, schema))?.value).toEqual({ n: 1 });
  });

  it('If-Match on a missing object is a conflict, not a create', async () => {
    const key = `tests/${uniqueName('obj')}/missing.json`;
    await expect(store.objects.putIfMatch(key, { n: 1 }, '"0123"')).rejects.toBeInstanceOf(PreconditionConflictError);
    expect(await store.objects.exists(key)).toBe(false);
  });

  it('corrupt or off-schema JSON is a clear error naming the key', async () => {
    const base = `tests/${uniqueName('corrupt')}`;
    await store.objects.put(`${base}/a.json`, 'not json {');
    await store.objects.put(`${base}/b.json`, { n: 'one' });
    const schema = z.object({ n: z.number() });
    await expect(store.objects.getJson(`${base}/a.json`, schema)).rejects.toThrow(new RegExp(`corrupt object at ${base}/a.json: not JSON`));
    const err = await store.objects.getJson(`${base}/b.json`, schema).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorruptObjectError);
    expect((err as Error).message).toMatch(new RegExp(`^corrupt object at ${base}/b.json: n: `));
    expect(err).toMatchObject({ retryable: false });
  });

  it('lists every page in lexical order, and lists children like ls', async () => {
    const base = `tests/${uniqueName('list')}/`;
    const names = Array.from({ length: 1105 }, (_, i) => `k${String(i).padStart(4, '0')}`);
    const shuffled = [...names].sort(() => Math.random() - 0.5);
    for (let i = 0; i < shuffled.length; i += 50) {
      await Promise.all(shuffled.slice(i, i + 50).map((n) => store.objects.put(`${base}${n}`, 'x')));
    }
    await store.objects.put(`${base}sub/a`, 'x');
    await store.objects.put(`${base}sub/deeper/b`, 'x');
    const listed = await store.objects.list(base);
    expect(listed).toHaveLength(1107);
    expect(listed.slice(0, 1105)).toEqual(names.map((n) => `${base}${n}`));
    expect(listed.slice(1105)).toEqual([`${base}sub/a`, `${base}sub/deeper/b`]);
    const children = await store.objects.listChildren(base);
    expect(children).toHaveLength(1106);
    expect(children.at(-1)).toBe('sub');
    await mapLimit(listed, 64, (key) => store.objects.delete(key));
    expect(await store.objects.list(base)).toEqual([]);
  });

  it('text reads support If-None-Match', async () => {
    const key = `${scopePrefix(scopeKeyOf(appScope()))}notes/weather.md`;
    expect(await store.objects.getText(key)).toBeUndefined();
    const { etag } = await store.objects.put(key, '# Weather\n\nUse it.\n');
    expect(await store.objects.getText(key)).toMatchObject({ value: '# Weather\n\nUse it.\n', etag });
    expect(await store.objects.getText(key, etag)).toEqual({ notModified: true });
    const next = await store.objects.put(key, '# Weather\n\nUse it well.\n');
    expect(await store.objects.getText(key, etag)).toMatchObject({ value: '# Weather\n\nUse it well.\n', etag: next.etag });
    await store.objects.delete(key);
    await store.objects.delete(key);
    expect(await store.objects.getText(key)).toBeUndefined();
  });
});

describe('keys', () => {
  it('are fixed-width sortable times', () => {
    expect(sortableTime('2026-11-29T21:14:00.123Z')).toBe('2026-11-29T21-14-00.123Z');
    expect(sortableTime('2026-11-29T22:14:00+01:00')).toBe('2026-11-29T21-14-00.000Z');
    expect(() => sortableTime('yesterday')).toThrow(InvalidStorageRequestError);
    const times = ['2026-01-02T03:04:05.006Z', '2026-01-02T03:04:05.060Z', '2026-01-02T03:04:50Z', '2026-10-01T00:00:00Z'];
    const keys = times.map(sortableTime);
    expect([...keys].sort()).toEqual(keys);
  });

  it('accept only scope keys of the three known shapes', () => {
    for (const ok of ['global', 'apps/shop', 'users/shop/u-1']) expect(checkedScopeKey(ok)).toBe(ok);
    for (const bad of ['', 'apps', 'apps/../x', '../global', 'apps/a/b', 'users/a', 'global/x', 'apps/', 'tenants/a']) {
      expect(() => checkedScopeKey(bad)).toThrow(InvalidStorageRequestError);
    }
    expect(() => payloadKey('../../etc/passwd')).toThrow(InvalidStorageRequestError);
  });

  it('hostile ids never escape their prefix (asserted on the listed keys)', async () => {
    const scope = { mode: 'user' as const, app: '../../x', user: `a/b/${uniqueName('u')}` };
    const sk = scopeKeyOf(scope);
    expect(sk).toMatch(/^users\/id-[0-9a-f]{16}\/id-[0-9a-f]{16}$/);
    const hostile = ['../x', 'a/b', '..', '.', '', '%2e%2e%2f', 'x\u0000y', '/abs', 'ok-id'];
    const at = '2026-11-29T21:14:00.123Z';
    const run = uniqueName('run'); // revision ids are globally unique, across runs too
    for (const [i, id] of hostile.entries()) {
      await store.createRevision({
        id: `${id}#${i}#${run}`,
        skillId: id || 'empty',
        scopeKey: sk,
        scope,
        action: 'create',
        status: 'pending',
        spec: { name: 'n', description: 'd', when_to_use: 'w', steps: ['s'] },
        source: 'manual',
        jobId: 'job',
        createdAt: at,
        updatedAt: at,
      });
      await store.appendAudit({ id: id || 'e', at, action: 'write_revision', skillId: id || 'empty', scopeKey: sk });
      await store.writeCursor(sk, id, { lastEventCount: 1, updatedAt: at });
    }
    const prefix = scopePrefix(sk);
    const keys = await store.objects.list(prefix);
    expect(keys).toHaveLength(hostile.length * 3);
    for (const key of keys) {
      expect(key.startsWith(prefix)).toBe(true);
      const rest = key.slice(prefix.length).split('/');
      for (const segment of rest) expect(isSafeSegment(segment), `${key}: segment ${JSON.stringify(segment)}`).toBe(true);
      expect(rest[0]).toMatch(/^(skills|sessions|published)$/);
      expect(rest.length).toBe(rest[0] === 'skills' ? 4 : 3);
    }
    expect(keys.filter((k) => k.includes('/skills/ok-id/'))).toHaveLength(2);
    expect(revisionKey('global', 'a/b', '../x')).toMatch(/^scopes\/global\/skills\/id-[0-9a-f]{16}\/revisions\/id-[0-9a-f]{16}\.json$/);
    expect(auditKey('global', '../x', at, 'a/b')).toMatch(/^scopes\/global\/skills\/id-[0-9a-f]{16}\/audit\/2026-11-29T21-14-00\.123Z-id-[0-9a-f]{16}\.json$/);
    // The same hostile id always maps to the same key (idempotent mapping).
    expect(revisionKey('global', 'a/b', '../x')).toBe(revisionKey('global', 'a/b', '../x'));
  });
});

describe('claim-check payloads', () => {
  it('round-trips bytes and text; storing again is fine', async () => {
    const text = `transcript ${uniqueName('p')} — with ünïcode ✓\n`.repeat(500);
    const ref = await store.putPayload(text);
    expect(ref).toEqual({ sha256: createHash('sha256').update(text, 'utf8').digest('hex'), bytes: Buffer.byteLength(text) });
    expect(await store.putPayload(text)).toEqual(ref);
    expect(await store.getPayloadText(ref)).toBe(text);
    const bytes = new Uint8Array([0, 1, 2, 255, 254, ...Buffer.from(uniqueName('b'))]);
    const bref = await store.putPayload(bytes);
    expect(Array.from(await store.getPayload(bref))).toEqual(Array.from(bytes));
  });

  it('rejects content that does not hash to its reference, and a missing payload', async () => {
    const claimed = `claimed ${uniqueName('p')}`;
    const sha = createHash('sha256').update(claimed).digest('hex');
    await store.objects.put(payloadKey(sha), 'tampered content!!');
    const sizeMismatch = await store.getPayload({ sha256: sha, bytes: claimed.length }).catch((e: unknown) => e);
    expect(sizeMismatch).toBeInstanceOf(PayloadIntegrityError);
    const hashMismatch = await store.getPayload({ sha256: sha, bytes: 18 }).catch((e: unknown) => e);
    expect(hashMismatch).toBeInstanceOf(PayloadIntegrityError);
    expect((hashMismatch as Error).message).toMatch(new RegExp(`payloads/${sha} failed its integrity check: content hashes to [0-9a-f]{64}`));
    const missing = createHash('sha256').update(uniqueName('none')).digest('hex');
    await expect(store.getPayload({ sha256: missing, bytes: 1 })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('datasets', () => {
  const dataset = (id: string, expected = 'yes'): Dataset => ({
    id,
    version: 'v1',
    feedback: [{ id: 'f1', input: { q: 1 }, expected, critical: false }],
    validation: [{ id: 'v1', input: 'q', critical: false }],
    holdout: [{ id: 'h1', input: ['q'], critical: true }],
  });

  it('are frozen: same content again is fine, different content is a non-retryable conflict', async () => {
    const id = uniqueName('ds');
    expect(await store.getDataset(id, 'v1')).toBeUndefined();
    await store.putDataset(dataset(id));
    expect(await store.putDataset(dataset(id))).toEqual(dataset(id));
    const err = await store.putDataset(dataset(id, 'no')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PreconditionConflictError);
    expect(err).toMatchObject({ retryable: false });
    expect((err as Error).message).toMatch(/is frozen/);
    expect(await store.getDataset(id, 'v1')).toEqual(dataset(id));
    await expect(store.putDataset({ ...dataset(id), version: '' })).rejects.toBeInstanceOf(InvalidStorageRequestError);
  });
});

describe('review cursor', () => {
  it('round-trips and never moves backwards', async () => {
    const sk = scopeKeyOf(appScope());
    const session = uniqueName('sess');
    expect(await store.readCursor(sk, session)).toBeUndefined();
    const c1 = { lastEventCount: 4, lastReviewedAt: '2026-11-29T10:00:00Z', updatedAt: '2026-11-29T10:00:01Z' };
    expect(await store.writeCursor(sk, session, c1)).toEqual(c1);
    expect(await store.readCursor(sk, session)).toEqual(c1);
    const c2 = { lastEventCount: 9, updatedAt: '2026-11-29T10:05:00Z' };
    await store.writeCursor(sk, session, c2);
    expect(await store.writeCursor(sk, session, c1)).toEqual(c2); // a late, older write loses
    expect(await store.readCursor(sk, session)).toEqual(c2);
    const c3 = { lastEventCount: 2, updatedAt: '2026-11-29T10:09:00Z' }; // a newer job over a restarted event list
    expect(await store.writeCursor(sk, session, c3)).toEqual(c3);
    const sameSecondEarlier = { lastEventCount: 3, updatedAt: '2026-11-29T10:09:00Z' };
    const sameSecondLater = { lastEventCount: 4, updatedAt: '2026-11-29T10:09:00.500Z' };
    expect(await store.writeCursor(sk, session, sameSecondLater)).toEqual(sameSecondLater);
    expect(await store.writeCursor(sk, session, sameSecondEarlier)).toEqual(sameSecondLater); // compared as instants, not text
    await expect(store.writeCursor(sk, session, { lastEventCount: -1, updatedAt: 'x' })).rejects.toBeInstanceOf(InvalidStorageRequestError);
  });

  it("keeps the answer of the review step that advanced it, for that step's later attempts only, and an unreadable answer never hides the position", async () => {
    const sk = scopeKeyOf(appScope());
    const session = uniqueName('sess');
    const decision: ReviewDecision = {
      skip_reason: '',
      creates: [{ name: 'triage-flaky-test', description: 'd', when_to_use: 'w', steps: ['s'], pitfalls: [] }],
      updates: [],
      deletions: [],
      dropped: [],
      answer: { format: 'json_schema', repairs: [], promptTokens: 120, completionTokens: 40 },
    };
    const step = { runId: 'run-1', activityId: '3' };
    expect(await store.readStepReview(sk, session, step)).toBeUndefined();
    const advanced = { lastEventCount: 6, updatedAt: '2026-11-29T10:03:00Z' };
    const { etag } = await store.readCursorVersion(sk, session);
    await store.writeCursor(sk, session, advanced, { etag }, { ...step, decision });
    expect(await store.readCursor(sk, session)).toEqual(advanced);
    expect(await store.readStepReview(sk, session, step)).toEqual(decision);
    expect(await store.readStepReview(sk, session, { ...step, runId: 'run-2' })).toBeUndefined(); // a re-run of the job asks again
    expect(await store.readStepReview(sk, session, { ...step, activityId: '4' })).toBeUndefined();

    // The session's next job advances it again: the earlier job's answer is gone, the object is one.
    await store.writeCursor(sk, session, { lastEventCount: 9, updatedAt: '2026-11-29T10:04:00Z' }, undefined, {
      runId: 'run-2',
      activityId: '3',
      decision: { ...decision, creates: [] },
    });
    expect(await store.readStepReview(sk, session, step)).toBeUndefined();
    expect(await store.readStepReview(sk, session, { runId: 'run-2', activityId: '3' })).toMatchObject({ creates: [] });

    await store.objects.put(cursorKey(sk, session), {
      lastEventCount: 9,
      updatedAt: '2026-11-29T10:04:00Z',
      review: { runId: 'run-2', activityId: '3', decision: { creates: 'not a list' } },
    });
    expect(await store.readStepReview(sk, session, { runId: 'run-2', activityId: '3' })).toBeUndefined();
    expect(await store.readCursor(sk, session)).toEqual({ lastEventCount: 9, updatedAt: '2026-11-29T10:04:00Z' });
  });

  it('keeps the failed reviews of the delta after it in the same object, dropped when the cursor moves on', async () => {
    const sk = scopeKeyOf(appScope());
    const session = uniqueName('sess');
    const failure = (jobId: string, at: string) => ({ jobId, reason: `malformed (${jobId})`, at });
    const delta = { position: {}, fingerprint: 'd-first' };
    // Before any cursor exists: the failures alone, and still no position.
    expect(await store.recordFailedReview(sk, session, { ...delta, failure: failure('j1', '2026-11-29T10:00:00Z') })).toHaveLength(1);
    expect(await store.recordFailedReview(sk, session, { ...delta, failure: failure('j1', '2026-11-29T10:00:00Z') })).toHaveLength(1); // a retried activity counts once
    expect(await store.recordFailedReview(sk, session, { ...delta, failure: failure('j2', '2026-11-29T10:01:00Z') })).toHaveLength(2);
    expect(await store.readCursor(sk, session)).toBeUndefined();
    const read = await store.readCursorVersion(sk, session);
    expect(read.failedReviews).toEqual({ fingerprint: 'd-first', failures: [failure('j1', '2026-11-29T10:00:00Z'), failure('j2', '2026-11-29T10:01:00Z')] });

    // Another delta (other fingerprint) starts its own count.
    expect(await store.recordFailedReview(sk, session, { position: {}, fingerprint: 'd-other', failure: failure('j3', '2026-11-29T10:02:00Z') })).toHaveLength(1);

    // Advancing the cursor (at the version read) steps past the delta and drops its failures.
    const advanced = { lastEventCount: 6, lastReviewedAt: '2026-11-29T10:00:05Z', updatedAt: '2026-11-29T10:03:00Z' };
    const { etag } = await store.readCursorVersion(sk, session);
    await store.writeCursor(sk, session, advanced, { etag });
    expect(await store.readCursorVersion(sk, session)).toMatchObject({ cursor: advanced, failedReviews: undefined });

    // A late failure for the old position records nothing: that delta is gone.
    expect(await store.recordFailedReview(sk, session, { ...delta, failure: failure('j4', '2026-11-29T10:04:00Z') })).toEqual([]);
    expect((await store.readCursorVersion(sk, session)).failedReviews).toBeUndefined();
    // At the current position it counts, and the position stays.
    const here = { position: { lastEventCount: 6, lastReviewedAt: '2026-11-29T10:00:05Z' }, fingerprint: 'd-next' };
    expect(await store.recordFailedReview(sk, session, { ...here, failure: failure('j5', '2026-11-29T10:05:00Z') })).toHaveLength(1);
    expect(await store.readCursor(sk, session)).toEqual({ ...advanced, updatedAt: '2026-11-29T10:05:00Z' });
  });
});
