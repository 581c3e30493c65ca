// Every workflow the worker registers. Deterministic orchestration only: all I/O is in activities.
export { sessionWorkflow, submitSegmentSignal, sessionStateQuery } from './session';
export { learningJobWorkflow, type LearningJobInput } from './learning-job';
export { approvalWorkflow, decideSignal, decideUpdate, approvalStatusQuery, type ApprovalDecision, type ApprovalInput, type ApprovalResult, type ApprovalStatus } from './approval';
export { rollbackWorkflow, type RollbackInput, type RollbackResult } from './rollback';
export { experimentWorkflow, evaluationBatchWorkflow, experimentProgressQuery, type ExperimentReport, type ExperimentProgress, type ExperimentWorkflowInput } from './experiment';
export { scopeIndexWorkflow, indexChangeSignal, reconcileIndexSignal, scopeIndexStateQuery, type ScopeIndexInput, type ScopeIndexState } from './scope-index';
