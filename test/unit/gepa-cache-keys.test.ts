import { describe, expect, it } from 'vitest';
import { cacheEntryKey, caseVersion, evaluatorKey, sameEvaluator } from '../../core/gepa';

describe('evaluation cache keys', () => {
  const c = { id: 'c1', input: { cities: ['Paris'] }, expected: { cities: ['Paris'] }, critical: false, metadata: { family: 'weather' } };

  it('versions a case by its content, whatever the key order, and not by its id', () => {
    expect(caseVersion(c)).toMatch(/^[0-9a-f]{16}$/);
    expect(caseVersion({ ...c, metadata: { family: 'weather' }, input: { cities: ['Paris'] } })).toBe(caseVersion(c));
    expect(caseVersion({ ...c, input: { cities: ['Lima'] } })).not.toBe(caseVersion(c));
    expect(caseVersion({ ...c, critical: true })).not.toBe(caseVersion(c));
    expect(caseVersion({ ...c, expected: undefined })).not.toBe(caseVersion(c));
    expect(cacheEntryKey('c1', caseVersion(c))).toBe(`c1@${caseVersion(c)}`);
  });

  it('names an evaluator by its queue and both versions: a change of either is another evaluator', () => {
    const id = { taskQueue: 'q', evaluatorVersion: '1.0', modelVersion: 'm-1' };
    expect(evaluatorKey(id)).toMatch(/^[0-9a-f]{32}$/);
    expect(evaluatorKey({ ...id })).toBe(evaluatorKey(id));
    for (const other of [
      { ...id, taskQueue: 'q2' },
      { ...id, evaluatorVersion: '1.1' },
      { ...id, modelVersion: 'm-2' },
      { taskQueue: 'q', evaluatorVersion: '1.0' },
    ]) {
      expect(evaluatorKey(other)).not.toBe(evaluatorKey(id));
    }
    expect(sameEvaluator({ evaluatorVersion: '1', modelVersion: 'a' }, { evaluatorVersion: '1', modelVersion: 'a' })).toBe(true);
    expect(sameEvaluator({ evaluatorVersion: '1', modelVersion: 'a' }, { evaluatorVersion: '1' })).toBe(false);
    expect(sameEvaluator(undefined, { evaluatorVersion: '1' })).toBe(false);
  });
});
