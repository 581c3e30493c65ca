import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../../core/workflow-api';
import * as workflows from '../../workflows';

/**
 * core/workflow-api is how the client library starts and talks to workflows without their
 * code: each workflow's type name, signature and messages. The names must be the ones the
 * worker registers (the exported function names), and the signatures the workflows' own;
 * `npm run typecheck` checks the expectTypeOf lines.
 */
describe('workflow API (core/workflow-api)', () => {
  it('names each workflow as the worker registers it', () => {
    expect(api.SESSION_WORKFLOW).toBe(workflows.sessionWorkflow.name);
    expect(api.APPROVAL_WORKFLOW).toBe(workflows.approvalWorkflow.name);
    expect(api.ROLLBACK_WORKFLOW).toBe(workflows.rollbackWorkflow.name);
    expect(api.EXPERIMENT_WORKFLOW).toBe(workflows.experimentWorkflow.name);
    expect(api.IMPORT_SKILL_WORKFLOW).toBe(workflows.importSkillWorkflow.name);
    expect(api.CURATOR_WORKFLOW).toBe(workflows.curatorWorkflow.name);
    expect(api.ROLLOUT_WORKFLOW).toBe(workflows.rolloutWorkflow.name);
  });

  it('declares each workflow with its own signature', () => {
    expectTypeOf(workflows.sessionWorkflow).toEqualTypeOf<api.SessionWorkflow>();
    expectTypeOf(workflows.approvalWorkflow).toEqualTypeOf<api.ApprovalWorkflow>();
    expectTypeOf(workflows.rollbackWorkflow).toEqualTypeOf<api.RollbackWorkflow>();
    expectTypeOf(workflows.experimentWorkflow).toEqualTypeOf<api.ExperimentWorkflow>();
    expectTypeOf(workflows.importSkillWorkflow).toEqualTypeOf<api.ImportSkillWorkflow>();
    expectTypeOf(workflows.curatorWorkflow).toEqualTypeOf<api.CuratorWorkflow>();
    expectTypeOf(workflows.rolloutWorkflow).toEqualTypeOf<api.RolloutWorkflow>();
  });

  it('is where the workflows take their message definitions from (one object each, as @temporalio/workflow would build it)', () => {
    expect(workflows.submitSegmentSignal).toBe(api.submitSegmentSignal);
    expect(workflows.decideUpdate).toBe(api.decideUpdate);
    expect(workflows.experimentProgressQuery).toBe(api.experimentProgressQuery);
    expect(workflows.promoteRolloutUpdate).toBe(api.promoteRolloutUpdate);
    expect(workflows.abortRolloutUpdate).toBe(api.abortRolloutUpdate);
    expect(api.submitSegmentSignal).toEqual({ type: 'signal', name: 'submitSegment' });
    expect(api.decideUpdate).toEqual({ type: 'update', name: 'decideWithAnswer' });
    expect(api.approvalStatusQuery).toEqual({ type: 'query', name: 'status' });
    expect(api.learningJobProgressQuery).toEqual({ type: 'query', name: 'progress' });
  });
});
