// Every workflow the worker registers. Deterministic orchestration only: all I/O is in activities.
//
// Every workflow instance evaluates the modules it reaches from here afresh, so this
// entry keeps the online-learning path (session, job, approval, rollback) small and free
// of zod: test/unit/workflow-imports.test.ts guards it. The GEPA workflows, which validate
// requests and evaluator output with the schemas, load their module graph only inside
// their own instances (a synchronous, deterministic require resolved by the bundler).
import type * as Experiment from './experiment';
import type * as Evaluation from './gepa/evaluation';

export { sessionWorkflow, submitSegmentSignal, sessionStateQuery } from './session';
export { learningJobWorkflow, type LearningJobInput } from './learning-job';
export { approvalWorkflow, decideSignal, decideUpdate, approvalStatusQuery, type ApprovalDecision, type ApprovalInput, type ApprovalResult, type ApprovalStatus } from './approval';
export { rollbackWorkflow, type RollbackInput, type RollbackResult } from './rollback';
export { importSkillWorkflow, type ImportSkillInput, type ImportSkillResult } from './import-skill';
export { experimentProgressQuery } from '../core/workflow-api/experiment';
export type { ExperimentReport, ExperimentProgress, ExperimentWorkflowInput } from './experiment';

// eslint-disable-next-line no-restricted-globals -- a bundled module resolved by webpack at build time: deterministic, no I/O
const experiment = (): typeof Experiment => require('./experiment');

export function experimentWorkflow(...args: Parameters<typeof Experiment.experimentWorkflow>): ReturnType<typeof Experiment.experimentWorkflow> {
  return experiment().experimentWorkflow(...args);
}

export function evaluationBatchWorkflow(...args: Parameters<typeof Evaluation.evaluationBatchWorkflow>): ReturnType<typeof Evaluation.evaluationBatchWorkflow> {
  // eslint-disable-next-line no-restricted-globals -- as above
  return (require('./gepa/evaluation') as typeof Evaluation).evaluationBatchWorkflow(...args);
}
export { scopeIndexWorkflow, indexChangeSignal, reconcileIndexSignal, scopeIndexStateQuery, type ScopeIndexInput, type ScopeIndexState } from './scope-index';
export { scopeUsageWorkflow, usageRecordedSignal, scopeUsageStateQuery, type ScopeUsageInput, type ScopeUsageState } from './scope-usage';
export { recertificationWorkflow, type RecertificationInput, type RecertificationResult } from './recertification';
export { curatorWorkflow, type CuratorInput, type CuratorResult } from './curator';
export { evaluationRunWorkflow, type EvaluationRunInput, type EvaluationRunResult } from './evaluation';
export { evaluationProgressQuery } from '../core/workflow-api/evaluation';
export { rolloutWorkflow, promoteRolloutUpdate, abortRolloutUpdate, rolloutStatusQuery, type RolloutInput, type RolloutResult, type RolloutStatus } from './rollout';
