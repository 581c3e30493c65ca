import { MockActivityEnvironment } from '@temporalio/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { scopeIndexActivities } from '../../activities/scope-index';
import { isLivePointer, renderSkillMarkdown, scopeKey as scopeKeyOf, type LivePointer } from '../../core';
import {
  indexChangeFor,
  InvalidStorageRequestError,
  PreconditionConflictError,
  activeKey,
  createObjectStore,
  createS3Client,
  createSkillStore,
  retryOnConflict,
  skillStoreOn,
  type ObjectStore,
  tombstonePointer,
  type SkillStore,
} from '../../storage';
import { realServices, uniqueName } from '../support/infra';
import { SkillRepository } from '../../client/skill-repository';

let store: SkillStore;
let s3: Awaited<ReturnType<typeof realServices>>['s3'];

beforeAll(async () => {
  s3 = (await realServices(['s3'])).s3;
  store = createSkillStore(s3);
});

/** A store of its own (another worker process) over the real bucket, counting the requests it makes by method. */
function countingStore(): { store: SkillStore; calls: Record<string, number> } {
  const objects = createObjectStore(createS3Client(s3), s3.bucket);
  const calls: Record<string, number> = {};
  const counted = new Proxy(objects, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls[String(prop)] = (calls[String(prop)] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as ObjectStore;
  return { store: skillStoreOn(counted), calls };
}

const newScopeKey = () => scopeKeyOf({ mode: 'app', app: uniqueName('app') });

function pointer(skillId: string, revisionId: string, steps: string[] = ['step'], name = skillId, seq = 1): LivePointer {
  return {
    skillId,
    revisionId,
    deleted: false,
    managed: true,
    publishedAt: '2026-11-29T10:00:00Z',
    seq,
    recent: [],
    spec: { name, description: `about ${name}`, when_to_use: 'w', steps, pitfalls: [] },
  };
}

describe('active pointer', () => {
  it('first write is create-only, then If-Match; a stale ETag is a retryable conflict', async () => {
    const sk = newScopeKey();
    expect(await store.readActive(sk, 'weather')).toBeUndefined();
    const v1 = await store.writeActive(sk, 'weather', pointer('weather', 'r1'), null);
    expect(await store.readActive(sk, 'weather')).toEqual(v1);

    const second = await store.writeActive(sk, 'weather', pointer('weather', 'r2'), null).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(PreconditionConflictError);
    expect(second).toMatchObject({ key: activeKey(sk, 'weather'), retryable: true });

    const v2 = await store.writeActive(sk, 'weather', pointer('weather', 'r2'), v1.etag);
    const stale = await store.writeActive(sk, 'weather', pointer('weather', 'r3'), v1.etag).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(PreconditionConflictError);
    expect((stale as Error).message).toContain(`expected ETag ${v1.etag}`);
    expect((await store.readActive(sk, 'weather'))?.pointer.revisionId).toBe('r2');

    // Our own write whose response was lost comes back as a 412: the stored pointer is ours, so it is success.
    expect(await store.writeActive(sk, 'weather', pointer('weather', 'r2'), v1.etag)).toEqual(v2);
  });

  it('refuses a pointer for another skill', async () => {
    await expect(store.writeActive(newScopeKey(), 'weather', pointer('flights', 'r1'), null)).rejects.toBeInstanceOf(InvalidStorageRequestError);
  });

  it('an approved delete is a CAS write of a tombstone; the skill can come back later', async () => {
    const sk = newScopeKey();
    const live = await store.writeActive(sk, 'weather', pointer('weather', 'r1'), null);
    const tomb = tombstonePointer({ skillId: 'weather', revisionId: 'r-del', publishedAt: '2026-11-29T11:00:00Z', spec: pointer('weather', 'r1').spec });
    const deleted = await store.writeActive(sk, 'weather', tomb, live.etag);
    const read = await store.readActive(sk, 'weather');
    expect(read?.pointer).toEqual(tomb);
    expect(isLivePointer(read?.pointer)).toBe(false);
    // The delete is itself conditional: a writer holding the old ETag loses.
    await expect(store.writeActive(sk, 'weather', pointer('weather', 'r2'), live.etag)).rejects.toBeInstanceOf(PreconditionConflictError);
    const back = await store.writeActive(sk, 'weather', pointer('weather', 'r3'), deleted.etag);
    expect(isLivePointer(back.pointer)).toBe(true);
  });

  it('pointers written before tombstones existed still parse as live', async () => {
    const sk = newScopeKey();
    const { deleted: _omitted, ...legacy } = pointer('weather', 'r1');
    await store.objects.put(activeKey(sk, 'weather'), legacy);
    const read = await store.readActive(sk, 'weather');
    expect(read?.pointer).toEqual(pointer('weather', 'r1'));
  });

  it('the race: 20 concurrent CAS writers per round, 50 rounds (5 keys × 10 rounds at once) ⇒ exactly one winner per round, no lost update', async () => {
    // SeaweedFS serialises conditional PUTs on one key with a lock whose losers retry every
    // second (a fixed sleep in its lock client, no server option), so one round on one key
    // takes seconds however fast the client is. The 50 rounds therefore run as 5 chains of
    // 10 on 5 keys at the same time: every round is still 20 writers holding one ETag, each
    // chain still builds on its previous winner, and the chains race each other on the same
    // server as well. Each chain has its own S3 client, so its 20 writers never wait for a
    // socket behind another chain's.
    const KEYS = 5;
    const ROUNDS = 10;
    const WRITERS = 20;
    const started = performance.now();
    const chains = await Promise.all(
      Array.from({ length: KEYS }, async (_, k) => {
        const chainStore = createSkillStore(s3);
        const sk = newScopeKey();
        const skill = `contended-${k}`;
        let current = await chainStore.writeActive(sk, skill, pointer(skill, 'round-0', []), null);
        const winners: string[] = [];
        const winnersPerRound: number[] = [];
        const roundMs: number[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          const roundStarted = performance.now();
          // Every writer reads first, so all of them hold the same ETag, then all write at once.
          const reads = await Promise.all(Array.from({ length: WRITERS }, () => chainStore.readActive(sk, skill)));
          const outcomes = await Promise.allSettled(
            reads.map((read, w) => {
              const p = read!.pointer as LivePointer;
              const mine = `k${k}-r${round}-w${w}`;
              return chainStore.writeActive(sk, skill, pointer(skill, `round-${round}`, [...p.spec.steps, mine]), read!.etag).then(() => mine);
            }),
          );
          const won = outcomes.filter((o): o is PromiseFulfilledResult<string> => o.status === 'fulfilled');
          const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
          for (const l of lost) expect(l.reason).toBeInstanceOf(PreconditionConflictError);
          winnersPerRound.push(won.length);
          winners.push(...won.map((o) => o.value));
          current = (await chainStore.readActive(sk, skill))!;
          roundMs.push(performance.now() - roundStarted);
        }
        return { final: current.pointer as LivePointer, winners, winnersPerRound, roundMs };
      }),
    );
    const roundMs = chains.flatMap((c) => c.roundMs).sort((a, b) => a - b);
    console.log(
      `pointer race: ${KEYS} keys × ${ROUNDS} rounds × ${WRITERS} writers in ${(performance.now() - started).toFixed(0)} ms ` +
        `(round min/median/max ${roundMs[0]!.toFixed(0)}/${roundMs[roundMs.length >> 1]!.toFixed(0)}/${roundMs[roundMs.length - 1]!.toFixed(0)} ms)`,
    );
    for (const [k, c] of chains.entries()) {
      expect(c.winnersPerRound, `key ${k}`).toEqual(Array(ROUNDS).fill(1));
      expect(c.final.revisionId).toBe(`round-${ROUNDS}`);
      expect(c.final.spec.steps).toHaveLength(ROUNDS);
      expect(c.final.spec.steps).toEqual(c.winners);
    }
  }, 1_800_000); // a round waits in SeaweedFS's 1 s lock retries: ~6 s on an idle machine, much longer on a loaded one

  it('free-running read-modify-write: 20 writers × 5 appends each ⇒ all 100 appends survive', async () => {
    const sk = newScopeKey();
    const skill = 'counter';
    await store.writeActive(sk, skill, pointer(skill, 'start', []), null);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 20 }, async (_, w) => {
        for (let i = 0; i < 5; i++) {
          await retryOnConflict(
            async () => {
              const read = (await store.readActive(sk, skill))!;
              const steps = (read.pointer as LivePointer).spec.steps;
              await store.writeActive(sk, skill, pointer(skill, `w${w}-${i}`, [...steps, `w${w}-${i}`]), read.etag);
            },
            { attempts: 200 },
          );
        }
      }),
    );
    const steps = ((await store.readActive(sk, skill))!.pointer as LivePointer).spec.steps;
    console.log(`free-running CAS: 100 appends by 20 writers in ${(performance.now() - started).toFixed(0)} ms`);
    expect(steps).toHaveLength(100);
    expect(new Set(steps).size).toBe(100);
    for (let w = 0; w < 20; w++) {
      // Each writer's own appends keep their order.
      expect(steps.filter((s) => s.startsWith(`w${w}-`))).toEqual([0, 1, 2, 3, 4].map((i) => `w${w}-${i}`));
    }
  });
});

describe('scope index', () => {
  it('converges under concurrent change bursts and reconciles after concurrent publications; tombstones are left out', async () => {
    const sk = newScopeKey();
    const skills = Array.from({ length: 10 }, (_, i) => `skill-${i}`);
    expect(await store.readScopeIndex(sk)).toBeUndefined();

    // Each publication applies its own change right after its pointer write, all at once.
    await Promise.all(
      skills.map(async (id) => {
        const written = await store.writeActive(sk, id, pointer(id, `${id}-r1`), null);
        await store.applyScopeIndexChanges(sk, [indexChangeFor(written.pointer)]);
      }),
    );
    const expected = skills.map((id) => ({ skillId: id, name: id, description: `about ${id}`, revisionId: `${id}-r1`, managed: true, seq: 1 }));
    const afterPublications = await store.readScopeIndex(sk);
    expect(afterPublications).toMatchObject({ index: { scopeKey: sk, skills: expected } });

    // Ten concurrent reconciles with nothing changed: same skills, and no write at all.
    const before = afterPublications && !afterPublications.notModified ? afterPublications.index.generation : -1;
    await Promise.all(Array.from({ length: 10 }, () => store.reconcileScopeIndex(sk)));
    const settled = await store.readScopeIndex(sk);
    if (!settled || settled.notModified) throw new Error('index missing');
    expect(settled.index.skills).toEqual(expected);
    expect(settled.index.generation).toBe(before);

    // Agents refresh with one conditional GET.
    expect(await store.readScopeIndex(sk, settled.etag)).toEqual({ notModified: true });

    // A delete (tombstone) and an update race with reconciles; one of them is never announced (a lost signal).
    const p0 = (await store.readActive(sk, 'skill-0'))!;
    const p1 = (await store.readActive(sk, 'skill-1'))!;
    await Promise.all([
      store.writeActive(sk, 'skill-0', tombstonePointer({ skillId: 'skill-0', revisionId: 'del', publishedAt: '2026-11-29T12:00:00Z', seq: 2 }), p0.etag),
      store
        .writeActive(sk, 'skill-1', pointer('skill-1', 'skill-1-r2', ['new'], 'Skill One', 2), p1.etag)
        .then((w) => store.applyScopeIndexChanges(sk, [indexChangeFor(w.pointer)])),
      ...Array.from({ length: 8 }, () => store.reconcileScopeIndex(sk)),
    ]);
    await store.reconcileScopeIndex(sk);
    const changed = await store.readScopeIndex(sk, settled.etag);
    if (!changed || changed.notModified) throw new Error('expected a changed index');
    expect(changed.index.skills.map((s) => `${s.skillId}@${s.revisionId}`)).toEqual(['skill-1@skill-1-r2', ...skills.slice(2).map((id) => `${id}@${id}-r1`)]);
    expect(changed.index.skills[0]!.name).toBe('Skill One');
    expect(changed.index.removed).toEqual([{ skillId: 'skill-0', seq: 2 }]);
  });
});

describe('scope index snapshot of a scope without an index', () => {
  it('a process that just saw no index plans against that empty snapshot and creates the index without reading it again', async () => {
    const sk = newScopeKey();
    const { store: worker, calls } = countingStore();
    expect(await worker.readScopeIndex(sk)).toBeUndefined();
    expect(calls).toEqual({ getText: 1 });

    expect(await worker.scopeIndexSnapshot(sk, null)).toBeUndefined();
    const written = await worker.writeActive(sk, 'weather', pointer('weather', 'weather-r1'), null);
    expect(await worker.applyScopeIndexChanges(sk, [indexChangeFor(written.pointer)])).toHaveLength(1);
    // The pointer, the index. A new index names no rejections without reading them: a rejection creates its scope's index.
    expect(calls).toEqual({ getText: 1, putCreateOnly: 2 });
    expect(await store.readScopeIndex(sk)).toMatchObject({ index: { skills: [{ skillId: 'weather', revisionId: 'weather-r1' }], rejections: 0 } });
  });

  it('an absence another process has since ended costs one failed create; then the index is read and updated, keeping both skills', async () => {
    const sk = newScopeKey();
    const { store: late, calls } = countingStore();
    expect(await late.readScopeIndex(sk)).toBeUndefined();
    const a = await store.writeActive(sk, 'a', pointer('a', 'a-r1'), null);
    await store.applyScopeIndexChanges(sk, [indexChangeFor(a.pointer)]);

    const b = await late.writeActive(sk, 'b', pointer('b', 'b-r1'), null);
    expect(await late.applyScopeIndexChanges(sk, [indexChangeFor(b.pointer)])).toHaveLength(1);
    // The failed create-only write, then the index read and written by If-Match.
    expect(calls).toEqual({ getText: 2, putCreateOnly: 2, putIfMatch: 1 });
    expect(await store.readScopeIndex(sk)).toMatchObject({ index: { skills: [{ skillId: 'a' }, { skillId: 'b' }] } });
  });
});

describe('reading a scope index this process has seen', () => {
  it('asks only whether it changed (a 304 hands back the same copy), and reads it anew once another process has changed it', async () => {
    const sk = newScopeKey();
    const a = await store.writeActive(sk, 'a', pointer('a', 'a-r1'), null);
    await store.applyScopeIndexChanges(sk, [indexChangeFor(a.pointer)]);
    const { store: worker } = countingStore();

    const first = await worker.readScopeIndexIncluding(sk, [], { timeoutMs: 0 });
    const again = await worker.readScopeIndexIncluding(sk, [], { timeoutMs: 0 });
    // The same object: what a job derived from it (the skills ranked for the reviewer, their names) is reused.
    expect(again).toBe(first);

    const b = await store.writeActive(sk, 'b', pointer('b', 'b-r1'), null);
    await store.applyScopeIndexChanges(sk, [indexChangeFor(b.pointer)]);
    const changed = await worker.readScopeIndexIncluding(sk, [], { timeoutMs: 0 });
    expect(changed).not.toBe(first);
    expect(changed?.index.skills.map((s) => s.skillId)).toEqual(['a', 'b']);
  });

  it('within `reuseWithinMs` of confirming its copy (its read, or its own write), a review uses it with no request, unless the copy lacks what is waited for', async () => {
    const sk = newScopeKey();
    const a = await store.writeActive(sk, 'a', pointer('a', 'a-r1'), null);
    await store.applyScopeIndexChanges(sk, [indexChangeFor(a.pointer)]);
    const { store: worker, calls } = countingStore();
    const reuse = { timeoutMs: 0, reuseWithinMs: 60_000 };

    const first = await worker.readScopeIndexIncluding(sk, [], reuse);
    expect(calls).toEqual({ getText: 1 });
    // Another process indexes b: inside the window this worker does not look.
    const b = await store.writeActive(sk, 'b', pointer('b', 'b-r1'), null);
    await store.applyScopeIndexChanges(sk, [indexChangeFor(b.pointer)]);
    expect(await worker.readScopeIndexIncluding(sk, [], reuse)).toBe(first);
    expect(calls).toEqual({ getText: 1 });
    // Without the window (every other reader), or waiting for b (the session's own previous job), it reads.
    expect((await worker.readScopeIndexIncluding(sk, [], { timeoutMs: 0 }))?.index.skills.map((s) => s.skillId)).toEqual(['a', 'b']);
    const c = await store.writeActive(sk, 'c', pointer('c', 'c-r1'), null);
    await store.applyScopeIndexChanges(sk, [indexChangeFor(c.pointer)]);
    const waited = await worker.readScopeIndexIncluding(sk, [{ skillId: 'c', seq: 1 }], { ...reuse, timeoutMs: 5_000 });
    expect(waited?.index.skills.map((s) => s.skillId)).toEqual(['a', 'b', 'c']);
    expect(calls).toEqual({ getText: 3 });
    // Its own write confirms its copy too, also one retried after losing to another writer's.
    const d = await store.writeActive(sk, 'd', pointer('d', 'd-r1'), null);
    await worker.applyScopeIndexChanges(sk, [indexChangeFor(d.pointer)]);
    expect((await worker.readScopeIndexIncluding(sk, [], reuse))?.index.skills).toHaveLength(4);
    expect(calls).toEqual({ getText: 3, putIfMatch: 1 });
    const e = await store.writeActive(sk, 'e', pointer('e', 'e-r1'), null);
    await store.applyScopeIndexChanges(sk, [indexChangeFor(e.pointer)]);
    const f = await store.writeActive(sk, 'f', pointer('f', 'f-r1'), null);
    await worker.applyScopeIndexChanges(sk, [indexChangeFor(f.pointer)]);
    // The If-Match write failed (412), the retry read the index and wrote again: that write is the confirmed copy.
    expect(calls).toEqual({ getText: 4, putIfMatch: 3 });
    expect((await worker.readScopeIndexIncluding(sk, [], reuse))?.index.skills.map((s) => s.skillId)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(calls).toEqual({ getText: 4, putIfMatch: 3 });
  });
});

describe('scope index activity', () => {
  it("an attempt whose index write fails is repaired by its retry: the retry applies the same burst, and agents load the pointer's SKILL.md", async () => {
    const sk = newScopeKey();
    // The first index write fails as a crashed worker or a dropped connection would.
    const objects = createObjectStore(createS3Client(s3), s3.bucket);
    let failNextIndexWrite = true;
    const faulty = new Proxy(objects, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as (...a: unknown[]) => unknown;
        if (prop !== 'putCreateOnly' && prop !== 'putIfMatch') return typeof value === 'function' ? value.bind(target) : value;
        return (key: string, ...rest: unknown[]) => {
          if (failNextIndexWrite && key.endsWith('/index.json')) {
            failNextIndexWrite = false;
            return Promise.reject(new Error('socket hang up'));
          }
          return value.apply(target, [key, ...rest]);
        };
      },
    }) as ObjectStore;
    const activities = scopeIndexActivities({ store: skillStoreOn(faulty) });
    const written = await store.writeActive(sk, 'weather', pointer('weather', 'weather-r1'), null);
    const changes = [indexChangeFor(written.pointer)];
    const env = new MockActivityEnvironment();
    await expect(env.run(activities.applyScopeIndexChanges, { scopeKey: sk, changes })).rejects.toThrow(/socket hang up/);
    expect(await store.readScopeIndex(sk)).toBeUndefined();
    expect(await env.run(activities.applyScopeIndexChanges, { scopeKey: sk, changes })).toEqual({ applied: 1 }); // Temporal's retry of the same burst
    expect(await store.readScopeIndex(sk)).toMatchObject({ index: { skills: [{ skillId: 'weather', revisionId: 'weather-r1', seq: 1 }] } });
    const loaded = await new SkillRepository(store, { mode: 'app', app: sk.slice('apps/'.length) }).load('weather');
    expect(loaded).toMatchObject({ revisionId: 'weather-r1', markdown: renderSkillMarkdown((written.pointer as LivePointer).spec) });
  });
});
