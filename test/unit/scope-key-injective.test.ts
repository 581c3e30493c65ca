import { describe, expect, it } from 'vitest';
import { idSegment, isScopeKey, scopeKey, shortHash } from '../../core/skills';
import { learningJobWorkflowId, parseLearningJobWorkflowId, sessionWorkflowId } from '../../core/workflow-ids';
import { checkLearningJobInput } from '../../core/workflow-inputs';
import { cursorKey, experimentKey } from '../../storage/keys';
import { VALID_SEGMENT } from '../support/workflow-inputs';

/** A small seeded generator, so a failure names the id that broke the property and reruns alike. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = ['abcdef0123456789', 'abcXYZ09._-', 'ab@. /é日\u200b', '-id'];

function randomId(next: () => number): string {
  const alphabet = ALPHABETS[Math.floor(next() * ALPHABETS.length)]!;
  const length = 1 + Math.floor(next() * (next() < 0.1 ? 140 : 24));
  let id = next() < 0.3 ? 'id-' : '';
  for (let i = 0; i < length; i++) id += alphabet[Math.floor(next() * alphabet.length)];
  return id;
}

describe('idSegment is one-to-one (issue 31, item 2)', () => {
  it('the review example: a user named like Ana’s hashed segment does not get Ana’s scope key', () => {
    const ana = scopeKey({ mode: 'user', app: 'shop', user: 'ana@example.com' });
    expect(ana).toBe(`users/shop/id-${shortHash('ana@example.com')}`);
    const impostor = ana.split('/')[2]!;
    expect(scopeKey({ mode: 'user', app: 'shop', user: impostor })).not.toBe(ana);
    expect(scopeKey({ mode: 'app', app: `id-${shortHash('my app')}` })).not.toBe(scopeKey({ mode: 'app', app: 'my app' }));
  });

  it('keeps ordinary safe ids verbatim and hashes every id that starts with the reserved prefix', () => {
    for (const id of ['shop', 'ana', 'u-1', 'id', 'idx', 'ID-1', 'kid-1', 'x'.repeat(64)]) expect(idSegment(id)).toBe(id);
    for (const id of ['id-', 'id-1', `id-${'0'.repeat(16)}`, 'id-ana']) expect(idSegment(id)).toBe(`id-${shortHash(id)}`);
  });

  it('random and adversarial ids: distinct ids never share a segment, and a segment fed back in is a new id', () => {
    const next = prng(31);
    const ids = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const id = randomId(next);
      ids.add(id);
      ids.add(idSegment(id)); // the attacker's move: call yourself what someone else maps to
    }
    const owner = new Map<string, string>();
    for (const id of ids) {
      const seg = idSegment(id);
      expect(owner.get(seg) ?? id, `${JSON.stringify(id)} and ${JSON.stringify(owner.get(seg))} share ${seg}`).toBe(id);
      owner.set(seg, id);
      expect(isScopeKey(`apps/${seg}`)).toBe(true);
    }
  });

  it('scope keys only take forms the mapping produces: a verbatim id-… that is not a hash is no scope key', () => {
    expect(isScopeKey(`users/shop/id-${shortHash('x')}`)).toBe(true);
    expect(isScopeKey('users/shop/id-ana')).toBe(false);
    expect(isScopeKey('apps/id-1')).toBe(false);
    expect(isScopeKey('apps/idle')).toBe(true);
  });

  it('session, segment and experiment ids follow the same rule', () => {
    const hashed = `id-${shortHash('s/1')}`;
    expect(sessionWorkflowId('apps/shop', hashed)).not.toBe(sessionWorkflowId('apps/shop', 's/1'));
    expect(cursorKey('apps/shop', hashed)).not.toBe(cursorKey('apps/shop', 's/1'));
    const job = learningJobWorkflowId({ scopeKey: 'apps/shop', sessionId: hashed, segmentId: hashed });
    expect(job).not.toBe(learningJobWorkflowId({ scopeKey: 'apps/shop', sessionId: 's/1', segmentId: 's/1' }));
    expect(parseLearningJobWorkflowId(job)).toBeDefined();

    const long = `exp-${'a'.repeat(120)}`;
    expect(experimentKey(long)).not.toBe(experimentKey(`exp-${'a'.repeat(119)}b`));
    expect(experimentKey(`id-${shortHash(long)}`)).not.toBe(experimentKey(long));
  });

  it('a segment whose scope key is not the key of its own scope fails its input check', () => {
    const app = 'id-7';
    expect(checkLearningJobInput({ segment: { ...VALID_SEGMENT, app, scopeKey: `apps/${idSegment(app)}` } })).toEqual([]);
    expect(checkLearningJobInput({ segment: { ...VALID_SEGMENT, scopeKey: 'apps/other' } })).toEqual([
      'segment.scopeKey: "apps/other" is not the key of the segment\'s scope (mode app, app "app"): expected "apps/app"',
    ]);
  });
});
