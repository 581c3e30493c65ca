import { describe, expect, it } from 'vitest';
import { approvalWorkflowId, isScopeKey, learningJobWorkflowId, parseLearningJobWorkflowId, revisionIdFor, sessionWorkflowId } from '../../core/learning';
import { isSafeSegment, scopeKey } from '../../core/skills';

describe('revisionIdFor', () => {
  it('is deterministic in (jobId, ordinal) and distinct across both', () => {
    const a = revisionIdFor('learning/apps/shop/s1/seg-1', 0);
    expect(a).toMatch(/^rev-[0-9a-f]{24}-0$/);
    expect(revisionIdFor('learning/apps/shop/s1/seg-1', 0)).toBe(a);
    expect(revisionIdFor('learning/apps/shop/s1/seg-1', 1)).not.toBe(a);
    expect(revisionIdFor('learning/apps/shop/s1/seg-2', 0)).not.toBe(a);
  });

  it('is a safe storage key segment even for hostile job ids', () => {
    for (const jobId of ['../../x', 'a/b', '日本', 'x'.repeat(5000)]) expect(isSafeSegment(revisionIdFor(jobId, 12))).toBe(true);
  });

  it('rejects invalid input', () => {
    expect(() => revisionIdFor('', 0)).toThrow(RangeError);
    expect(() => revisionIdFor('job', -1)).toThrow(RangeError);
    expect(() => revisionIdFor('job', 1.5)).toThrow(RangeError);
  });
});

describe('workflow ids', () => {
  it('derive from the revision, session and segment', () => {
    const rev = revisionIdFor('job', 0);
    expect(approvalWorkflowId(rev)).toBe(`approval/${rev}`);
    expect(sessionWorkflowId('apps/shop', 'sess-1')).toBe('session/apps/shop/sess-1');
    expect(learningJobWorkflowId('users/shop/u1', 'sess-1', 'seg-9')).toBe('learning/users/shop/u1/sess-1/seg-9');
    expect(sessionWorkflowId('global', 's')).toBe('session/global/s');
  });

  it('a learning job id parses back into its scope, session and segment; other ids do not', () => {
    for (const [scope, session, segment] of [
      ['global', 's1', 'seg-1'],
      ['apps/shop', 'sess-1', 'seg-9'],
      ['users/shop/u1', 'sess-1', 'seg-9'],
      ['global', '../../etc', 'a/b'],
    ]) {
      const id = learningJobWorkflowId(scope, session, segment);
      expect(parseLearningJobWorkflowId(id)).toEqual({ scopeKey: scope, sessionId: id.split('/').at(-2), segmentId: id.split('/').at(-1) });
    }
    for (const other of ['', 'learning', 'learning/global/s1', 'session/apps/shop/s1', 'learning/apps/a/b/s/seg', 'learning/other/x/s/seg', 'learning/apps/shop/../seg']) {
      expect(parseLearningJobWorkflowId(other), other).toBeUndefined();
    }
  });

  it('make hostile session and segment ids safe', () => {
    const id = learningJobWorkflowId('global', '../../etc', 'a/b');
    expect(id).toMatch(/^learning\/global\/id-[0-9a-f]{16}\/id-[0-9a-f]{16}$/);
    expect(sessionWorkflowId(scopeKey({ mode: 'user', app: '..', user: 'x/y' }), 'ok')).toMatch(/^session\/users\/id-[0-9a-f]{16}\/id-[0-9a-f]{16}\/ok$/);
  });

  it('only accept real scope keys', () => {
    expect(isScopeKey('apps/shop')).toBe(true);
    for (const bad of ['', 'apps', 'apps/../x', 'apps/a/b', 'users/a', 'other/x', 'global/x']) {
      expect(isScopeKey(bad)).toBe(false);
      expect(() => sessionWorkflowId(bad, 's')).toThrow(/not a scope key/);
    }
  });
});
