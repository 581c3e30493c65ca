import { describe, expect, it } from 'vitest';
import { applyIndexChanges, indexIncludes, mostRelevant, newerChange, reconcileIndex, relevanceIndex, words, type IndexChange } from '../../core';
import { publicationsOf } from '../../core/governance';

const live = (skillId: string, seq: number, revisionId = `${skillId}-r${seq}`): IndexChange => ({
  skillId,
  seq,
  revisionId,
  entry: { name: skillId, description: `about ${skillId}`, managed: true },
});
const gone = (skillId: string, seq: number): IndexChange => ({ skillId, seq, revisionId: `${skillId}-del` });
const empty = { skills: [], removed: [] };

describe('applyIndexChanges', () => {
  it('converges to the highest seq per skill whatever the order, and repeats are no-ops', () => {
    const changes = [live('a', 1), live('a', 3), live('b', 1), live('a', 2), gone('b', 2), live('b', 1)];
    const orders = [changes, [...changes].reverse(), [changes[3]!, changes[0]!, changes[4]!, changes[1]!, changes[5]!, changes[2]!]];
    const results = orders.map((o) => applyIndexChanges(empty, o));
    for (const r of results) {
      expect(r.skills.map((s) => `${s.skillId}@${s.revisionId}`)).toEqual(['a@a-r3']);
      expect(r.removed).toEqual([{ skillId: 'b', seq: 2 }]);
    }
    const again = applyIndexChanges(results[0]!, changes);
    expect(again.changed).toBe(false);
    expect(again.applied).toEqual([]);
  });

  it('reports only the changes that differ (what needs an index write)', () => {
    const first = applyIndexChanges(empty, [live('a', 1), live('b', 1)]);
    const next = applyIndexChanges(first, [live('a', 1), live('b', 2)]);
    expect(next.applied.map((c) => `${c.skillId}@${c.seq}`)).toEqual(['b@2']);
  });

  it('a tombstone is remembered so an older live change cannot resurrect the skill', () => {
    const deleted = applyIndexChanges(applyIndexChanges(empty, [live('a', 1)]), [gone('a', 2)]);
    expect(deleted.skills).toEqual([]);
    expect(applyIndexChanges(deleted, [live('a', 1)]).skills).toEqual([]);
    expect(applyIndexChanges(deleted, [live('a', 3)]).skills.map((s) => s.revisionId)).toEqual(['a-r3']);
  });

  it('an entry read back from storage with its keys in another order is the same entry (no write)', () => {
    const stored = { skills: [{ description: 'about a', managed: true, name: 'a', revisionId: 'a-r1', seq: 1, skillId: 'a' }], removed: [] };
    const again = applyIndexChanges(stored, [live('a', 1)]);
    expect(again.changed).toBe(false);
    expect(reconcileIndex(stored, [live('a', 1)]).changed).toBe(false);
  });

  it('newerChange keeps the highest seq of a burst', () => {
    expect(newerChange(live('a', 2), live('a', 1)).seq).toBe(2);
    expect(newerChange(undefined, live('a', 1)).seq).toBe(1);
  });
});

describe('indexIncludes (read-your-writes)', () => {
  const index = applyIndexChanges(empty, [live('a', 2), live('b', 1), gone('b', 3)]);

  it('a live entry at that seq or newer includes the change; an older one does not', () => {
    expect(indexIncludes(index, 'a', 1)).toBe(true);
    expect(indexIncludes(index, 'a', 2)).toBe(true);
    expect(indexIncludes(index, 'a', 3)).toBe(false);
  });

  it('a tombstone counts: a deletion is included once the removal is recorded at its seq', () => {
    expect(indexIncludes(index, 'b', 3)).toBe(true);
    expect(indexIncludes(index, 'b', 4)).toBe(false);
  });

  it('a skill the index has never seen includes nothing', () => {
    expect(indexIncludes(index, 'c', 0)).toBe(false);
  });
});

describe('reconcileIndex', () => {
  it('repairs a missed change and drops skills without a pointer, but keeps a newer entry', () => {
    const index = applyIndexChanges(empty, [live('a', 5), live('ghost', 1)]);
    const repaired = reconcileIndex(index, [live('a', 4), live('b', 1)]);
    expect(repaired.skills.map((s) => `${s.skillId}@${s.seq}`)).toEqual(['a@5', 'b@1']);
    expect(repaired.changed).toBe(true);
    expect(reconcileIndex(repaired, [live('a', 5), live('b', 1)]).changed).toBe(false);
  });
});

describe('mostRelevant (bounded reviewer context)', () => {
  it('keeps at most `limit` skills, those sharing most words with the session first', () => {
    const skills = Array.from({ length: 100 }, (_, i) => ({ name: `skill-${i}`, description: `generic helper number ${i}` }));
    skills.push({ name: 'weather-report', description: 'Report the weather forecast for several cities' });
    const chosen = mostRelevant(skills, 'What is the weather forecast in Paris and Berlin?', 5);
    expect(chosen).toHaveLength(5);
    expect(chosen[0]!.name).toBe('weather-report');
  });

  it('returns every skill when there are few', () => {
    const skills = [{ name: 'a', description: 'x' }];
    expect(mostRelevant(skills, 'anything', 20)).toEqual(skills);
    expect(mostRelevant(relevanceIndex(skills), 'anything', 20)).toEqual(skills);
  });

  it('reuses the words of skills whose name and description did not change since the previous version', () => {
    const previous = relevanceIndex([{ name: 'a-b', description: 'weather forecast' }]);
    const index = relevanceIndex(
      [
        { name: 'a-b', description: 'weather forecast' },
        { name: 'c', description: 'deploy' },
      ],
      previous,
    );
    expect(index.wordsByText.get('a b weather forecast')).toBe(previous.wordsByText.get('a b weather forecast'));
    expect([...index.postings.keys()].sort()).toEqual(['deploy', 'forecast', 'weather']);
  });

  it('ranks exactly as scoring every skill does (shared words, then name, then list order), from a list or a prebuilt index', () => {
    // The definition, written the slow way: all of them when they fit, else score every skill and stable-sort.
    const byDefinition = (skills: { name: string; description: string }[], text: string, limit: number) => {
      if (skills.length <= limit) return skills;
      const session = words(text);
      const scored = skills.map((s) => ({ s, score: [...words(`${s.name.replaceAll('-', ' ')} ${s.description}`)].filter((w) => session.has(w)).length }));
      scored.sort((a, b) => b.score - a.score || (a.s.name < b.s.name ? -1 : a.s.name > b.s.name ? 1 : 0));
      return scored.slice(0, limit).map((x) => x.s);
    };
    const vocabulary = ['weather', 'paris', 'deploy', 'rollback', 'Élan', 'forecast', 'city', 'the', 'db', 'migration', 'cache', 'über'];
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pick = (n: number) => Array.from({ length: n }, () => vocabulary[next(vocabulary.length)]).join(next(2) ? ' ' : '-');
    for (let round = 0; round < 200; round++) {
      // Names repeat on purpose (equal names keep list order); some skills share no word with the session.
      const skills = Array.from({ length: 1 + next(40) }, (_, i) => ({ name: next(4) ? pick(1 + next(3)) : `same-${next(2)}`, description: pick(next(6)), i }));
      const text = pick(next(8));
      const limit = 1 + next(25);
      const expected = byDefinition(skills, text, limit);
      expect(mostRelevant(skills, text, limit)).toEqual(expected);
      expect(mostRelevant(relevanceIndex(skills), text, limit)).toEqual(expected);
      // Built from the previous version of the list (some skills changed, some gone, some new): the same ranking.
      const previous = relevanceIndex(skills.map((s) => (next(3) ? s : { ...s, description: pick(next(6)) })).slice(next(5)));
      expect(mostRelevant(relevanceIndex(skills, previous), text, limit)).toEqual(expected);
    }
  });
});

describe('publicationsOf (what a job published, for read-your-writes)', () => {
  it('lists the revisions that carry the pointer seq they announced, and nothing else', () => {
    const summary = (skillId: string, indexSeq?: number) => ({
      revisionId: `${skillId}-r`,
      skillId,
      name: skillId,
      action: 'create' as const,
      status: 'active' as const,
      shadowBypassed: false,
      reasons: [],
      ...(indexSeq === undefined ? {} : { indexSeq }),
    });
    expect(publicationsOf({ revisions: [summary('a', 3), summary('held'), summary('b', 1)] })).toEqual([
      { skillId: 'a', seq: 3 },
      { skillId: 'b', seq: 1 },
    ]);
    expect(publicationsOf({ revisions: [] })).toEqual([]);
  });
});
