import { describe, expect, it } from 'vitest';
import { revisionIdFor } from '../../core/learning';
import { scopeKey } from '../../core/skills';
import { isScopeKey } from '../../core/skills/scope-key';
import {
  approvalWorkflowId,
  evaluationWorkflowId,
  experimentWorkflowId,
  learningJobWorkflowId,
  malformedSegmentJobTarget,
  parseLearningJobWorkflowId,
  rollbackWorkflowId,
  importSkillWorkflowId,
  scheduledExperimentWorkflowId,
  scopeIndexWorkflowId,
  sessionWorkflowId,
} from '../../core/workflow-ids';

describe('workflow ids', () => {
  it('derive from the revision, session and segment', () => {
    const rev = revisionIdFor('job', 0);
    expect(approvalWorkflowId(rev)).toBe(`approval/${rev}`);
    expect(sessionWorkflowId('apps/shop', 'sess-1')).toBe('session/apps/shop/sess-1');
    expect(learningJobWorkflowId({ scopeKey: 'users/shop/u1', sessionId: 'sess-1', segmentId: 'seg-9' })).toBe('learning/users/shop/u1/sess-1/seg-9');
    expect(sessionWorkflowId('global', 's')).toBe('session/global/s');
  });

  it('a learning job id parses back into its scope, session and segment; other ids do not', () => {
    for (const [scope, session, segment] of [
      ['global', 's1', 'seg-1'],
      ['apps/shop', 'sess-1', 'seg-9'],
      ['users/shop/u1', 'sess-1', 'seg-9'],
      ['global', '../../etc', 'a/b'],
    ]) {
      const id = learningJobWorkflowId({ scopeKey: scope!, sessionId: session!, segmentId: segment! });
      expect(parseLearningJobWorkflowId(id)).toEqual({ scopeKey: scope, sessionId: id.split('/').at(-2), segmentId: id.split('/').at(-1) });
    }
    for (const other of ['', 'learning', 'learning/global/s1', 'session/apps/shop/s1', 'learning/apps/a/b/s/seg', 'learning/other/x/s/seg', 'learning/apps/shop/../seg']) {
      expect(parseLearningJobWorkflowId(other), other).toBeUndefined();
    }
  });

  it('make hostile session and segment ids safe', () => {
    const id = learningJobWorkflowId({ scopeKey: 'global', sessionId: '../../etc', segmentId: 'a/b' });
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
  it('name the scope index, rollbacks, experiments and their evaluations', () => {
    expect(scopeIndexWorkflowId('apps/shop')).toBe('scope-index/apps/shop');
    expect(() => scopeIndexWorkflowId('apps/../x')).toThrow(/not a scope key/);
    expect(rollbackWorkflowId('apps/shop', 'weather', 'r1')).toBe('rollback/apps/shop/weather/r1');
    // The operation id the CLI used when it moved the pointer itself: re-importing a file imported then is one operation.
    expect(importSkillWorkflowId('apps/shop', 'deploy-checklist', 'abc123')).toBe('import/apps/shop/deploy-checklist/abc123');
    expect(() => importSkillWorkflowId('apps/../x', 's', 'd')).toThrow(/not a scope key/);
    expect(experimentWorkflowId('exp-1')).toBe('experiment/exp-1');
    expect(scheduledExperimentWorkflowId('nightly')).toBe('experiment/sched-nightly');
    expect(evaluationWorkflowId('experiment/exp-1', 'e-seed-validation')).toBe('experiment/exp-1/eval/e-seed-validation');
  });

  it('give a malformed segment a job under its session, from its content', () => {
    const session = sessionWorkflowId('apps/shop', 'sess-1');
    const a = malformedSegmentJobTarget(session, { sessionId: 7 });
    expect(a).toEqual({ workflowId: expect.stringMatching(/^learning\/apps\/shop\/sess-1\/invalid-[0-9a-f]+$/), scopeKey: 'apps/shop' });
    expect(malformedSegmentJobTarget(session, { sessionId: 7 })).toEqual(a);
    expect(malformedSegmentJobTarget(session, { sessionId: 8 }).workflowId).not.toBe(a.workflowId);
    expect(malformedSegmentJobTarget(session, undefined).workflowId).toMatch(/^learning\/apps\/shop\/sess-1\/invalid-/);
  });
});
