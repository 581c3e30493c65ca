import { describe, expect, it } from 'vitest';
import { ActivePointerSchema, applyIndexChanges, cohortOf, nextPointer, revisionStatus, type ActivePointer, type Canary, type SkillSpec } from '../../core';
import { indexChangeFor, ScopeIndexSchema, type ScopeIndexRead, type SkillStore, type StoredPointer } from '../../storage';
import { SkillRepository } from '../../client/skill-repository';

const spec = (name: string, description = `about ${name}`): SkillSpec => ({ name, description, when_to_use: 'w', steps: ['s'], pitfalls: [] });
const canary = (fraction: number): Canary => ({ revisionId: 'rev-cand', spec: spec('weather', 'the candidate'), fraction, startedAt: '2026-12-05T09:00:00.000Z' });

function canaryPointer(fraction: number): ActivePointer {
  const stable = nextPointer(
    undefined,
    { skillId: 'weather', revisionId: 'rev-stable', managed: true, spec: spec('weather'), deleted: false },
    { opId: 'op1', at: '2026-12-05T08:00:00.000Z' },
  );
  return nextPointer(
    stable,
    { skillId: 'weather', revisionId: 'rev-stable', managed: true, spec: spec('weather'), deleted: false, canary: canary(fraction) },
    { opId: 'op2', at: '2026-12-05T09:00:00.000Z' },
  );
}

describe('canary pointer', () => {
  it('keeps the stable revision as the pointer revision and names the candidate with its fraction', () => {
    const p = canaryPointer(0.25);
    expect(p).toMatchObject({ revisionId: 'rev-stable', seq: 2, canary: { revisionId: 'rev-cand', fraction: 0.25 } });
    expect(ActivePointerSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  });

  it('a pointer without a canary parses as before (backward compatible)', () => {
    const old = { skillId: 'weather', revisionId: 'r1', publishedAt: '2026-01-01T00:00:00.000Z', spec: spec('weather') };
    const parsed = ActivePointerSchema.parse(old);
    expect(parsed.deleted).toBe(false);
    expect('canary' in parsed && parsed.canary).toBeFalsy();
  });

  it('any later operation without a canary ends it (promotion, rollback, a newer revision)', () => {
    const after = nextPointer(
      canaryPointer(0.25),
      { skillId: 'weather', revisionId: 'rev-cand', managed: true, spec: spec('weather', 'the candidate'), deleted: false },
      { opId: 'op3', at: '2026-12-05T10:00:00.000Z' },
    );
    expect(after.deleted === false && after.canary).toBeUndefined();
    expect(revisionStatus(after, { id: 'rev-stable', status: 'active', updatedAt: '2026-12-05T08:00:00.000Z' })).toBe('archived');
  });

  it('both the stable and the candidate revision are active while the canary runs', () => {
    const p = canaryPointer(0.05);
    expect(revisionStatus(p, { id: 'rev-stable', status: 'active', updatedAt: '2026-12-05T08:00:00.000Z' })).toBe('active');
    expect(revisionStatus(p, { id: 'rev-cand', status: 'active', updatedAt: '2026-12-05T09:00:00.000Z', promotedAt: '2026-12-05T09:00:00.000Z' })).toBe('active');
  });

  it('the scope index entry carries the canary, and a step of the fraction is a change', () => {
    const first = applyIndexChanges({ skills: [], removed: [] }, [indexChangeFor(canaryPointer(0.05))]);
    expect(first.skills[0]).toMatchObject({ revisionId: 'rev-stable', canary: { revisionId: 'rev-cand', fraction: 0.05, description: 'the candidate' } });
    const stepped = { ...canaryPointer(0.25), seq: 3 };
    expect(applyIndexChanges(first, [indexChangeFor(stepped)]).changed).toBe(true);
    expect(ScopeIndexSchema.parse({ scopeKey: 'global', generation: 1, skills: first.skills }).skills[0]!.canary?.fraction).toBe(0.05);
  });
});

/** The two reads the repository makes, over fixed objects, counting requests. */
function storeServing(pointer: ActivePointer) {
  const requests = { index: 0, pointer: 0 };
  const index = ScopeIndexSchema.parse({ scopeKey: 'global', generation: 1, skills: applyIndexChanges({ skills: [], removed: [] }, [indexChangeFor(pointer)]).skills });
  const store = {
    async readScopeIndex(_scopeKey: string, etag?: string): Promise<ScopeIndexRead | undefined> {
      requests.index++;
      return etag === '"e1"' ? { notModified: true } : { index, etag: '"e1"' };
    },
    async readActive(): Promise<StoredPointer | undefined> {
      requests.pointer++;
      return { pointer, etag: '"p1"' };
    },
  } as unknown as SkillStore;
  return { store, requests };
}

describe('SkillRepository resolves a canary by the session cohort', () => {
  const sessions = Array.from({ length: 60 }, (_, i) => `session-${i}`);

  it('gives each session the revision of its cohort, in list and load, with one index GET and one pointer GET', async () => {
    const pointer = canaryPointer(0.5);
    const { store, requests } = storeServing(pointer);
    const repository = new SkillRepository(store, { mode: 'none' });
    let candidates = 0;
    for (const sessionId of sessions) {
      const session = repository.forSession(sessionId);
      const expected = cohortOf(sessionId, { revisionId: 'rev-cand', fraction: 0.5 }) === 'candidate' ? 'rev-cand' : 'rev-stable';
      if (expected === 'rev-cand') candidates++;
      expect((await session.list())[0]!.revisionId).toBe(expected);
      const loaded = await session.load('weather');
      expect(loaded.revisionId).toBe(expected);
      expect(loaded.markdown).toContain(expected === 'rev-cand' ? 'the candidate' : 'about weather');
    }
    expect(candidates).toBeGreaterThan(10);
    expect(candidates).toBeLessThan(50);
    // Sessions share the caches: one index read, and one pointer read per revision body.
    expect(requests).toEqual({ index: 1, pointer: 2 });
  });

  it('a repository without a session id always gives the stable revision', async () => {
    const { store } = storeServing(canaryPointer(1));
    const repository = new SkillRepository(store, { mode: 'none' });
    expect((await repository.list())[0]!.revisionId).toBe('rev-stable');
    expect((await repository.load('weather')).revisionId).toBe('rev-stable');
  });
});
