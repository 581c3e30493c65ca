// Every workflow the worker registers. Deterministic orchestration only: all I/O is in activities.
//
// Every workflow instance evaluates the modules it reaches from here afresh, so this entry
// loads no workflow's module until an instance runs it: each export below is a function that
// loads its workflow's module graph on its first call (a synchronous, deterministic require the
// bundler resolves) and runs it. An instance of the scope's index workflow evaluates the
// index workflow's modules, not the session's, the job's or the GEPA experiment's.
// test/unit/workflow-imports.test.ts guards this, and keeps the online-learning path free of zod.
// Workflows start each other by type name (core/workflow-api) for the same reason.
/* eslint-disable no-restricted-globals -- `require` below loads bundled modules resolved by webpack at build time: deterministic, no I/O */
import type * as Approval from './approval';
import type * as Curator from './curator';
import type * as EvaluationRun from './evaluation';
import type * as Experiment from './experiment';
import type * as EvaluationBatch from './gepa/evaluation';
import type * as ImportSkill from './import-skill';
import type * as LearningJob from './learning-job';
import type * as Recertification from './recertification';
import type * as Rollback from './rollback';
import type * as Rollout from './rollout';
import type * as ScopeIndex from './scope-index';
import type * as ScopeUsage from './scope-usage';
import type * as Session from './session';

export { submitSegmentSignal, sessionStateQuery } from '../core/workflow-api/session';
export { decideSignal, decideUpdate, approvalStatusQuery } from '../core/workflow-api/approval';
export { indexChangeSignal, reconcileIndexSignal, scopeIndexStateQuery, type ScopeIndexState } from '../core/workflow-api/scope-index';
export { usageRecordedSignal, scopeUsageStateQuery, type ScopeUsageState } from '../core/workflow-api/scope-usage';
export { experimentProgressQuery } from '../core/workflow-api/experiment';
export { evaluationProgressQuery } from '../core/workflow-api/evaluation';
export { promoteRolloutUpdate, abortRolloutUpdate, rolloutStatusQuery } from '../core/workflow-api/rollout';
export type { LearningJobInput } from './learning-job';
export type { ApprovalDecision, ApprovalInput, ApprovalResult, ApprovalStatus } from './approval';
export type { RollbackInput, RollbackResult } from './rollback';
export type { ImportSkillInput, ImportSkillResult } from './import-skill';
export type { ExperimentReport, ExperimentProgress, ExperimentWorkflowInput } from './experiment';
export type { ScopeIndexInput } from './scope-index';
export type { ScopeUsageInput } from './scope-usage';
export type { RecertificationInput, RecertificationResult } from './recertification';
export type { CuratorInput, CuratorResult } from './curator';
export type { EvaluationRunInput, EvaluationRunResult } from './evaluation';
export type { RolloutInput, RolloutResult, RolloutStatus } from './rollout';

export function sessionWorkflow(...args: Parameters<typeof Session.sessionWorkflow>): ReturnType<typeof Session.sessionWorkflow> {
  return (require('./session') as typeof Session).sessionWorkflow(...args);
}

export function learningJobWorkflow(...args: Parameters<typeof LearningJob.learningJobWorkflow>): ReturnType<typeof LearningJob.learningJobWorkflow> {
  return (require('./learning-job') as typeof LearningJob).learningJobWorkflow(...args);
}

export function scopeIndexWorkflow(...args: Parameters<typeof ScopeIndex.scopeIndexWorkflow>): ReturnType<typeof ScopeIndex.scopeIndexWorkflow> {
  return (require('./scope-index') as typeof ScopeIndex).scopeIndexWorkflow(...args);
}

export function scopeUsageWorkflow(...args: Parameters<typeof ScopeUsage.scopeUsageWorkflow>): ReturnType<typeof ScopeUsage.scopeUsageWorkflow> {
  return (require('./scope-usage') as typeof ScopeUsage).scopeUsageWorkflow(...args);
}

export function approvalWorkflow(...args: Parameters<typeof Approval.approvalWorkflow>): ReturnType<typeof Approval.approvalWorkflow> {
  return (require('./approval') as typeof Approval).approvalWorkflow(...args);
}

export function rollbackWorkflow(...args: Parameters<typeof Rollback.rollbackWorkflow>): ReturnType<typeof Rollback.rollbackWorkflow> {
  return (require('./rollback') as typeof Rollback).rollbackWorkflow(...args);
}

export function importSkillWorkflow(...args: Parameters<typeof ImportSkill.importSkillWorkflow>): ReturnType<typeof ImportSkill.importSkillWorkflow> {
  return (require('./import-skill') as typeof ImportSkill).importSkillWorkflow(...args);
}

export function rolloutWorkflow(...args: Parameters<typeof Rollout.rolloutWorkflow>): ReturnType<typeof Rollout.rolloutWorkflow> {
  return (require('./rollout') as typeof Rollout).rolloutWorkflow(...args);
}

export function curatorWorkflow(...args: Parameters<typeof Curator.curatorWorkflow>): ReturnType<typeof Curator.curatorWorkflow> {
  return (require('./curator') as typeof Curator).curatorWorkflow(...args);
}

export function recertificationWorkflow(...args: Parameters<typeof Recertification.recertificationWorkflow>): ReturnType<typeof Recertification.recertificationWorkflow> {
  return (require('./recertification') as typeof Recertification).recertificationWorkflow(...args);
}

export function evaluationRunWorkflow(...args: Parameters<typeof EvaluationRun.evaluationRunWorkflow>): ReturnType<typeof EvaluationRun.evaluationRunWorkflow> {
  return (require('./evaluation') as typeof EvaluationRun).evaluationRunWorkflow(...args);
}

export function experimentWorkflow(...args: Parameters<typeof Experiment.experimentWorkflow>): ReturnType<typeof Experiment.experimentWorkflow> {
  return (require('./experiment') as typeof Experiment).experimentWorkflow(...args);
}

export function evaluationBatchWorkflow(...args: Parameters<typeof EvaluationBatch.evaluationBatchWorkflow>): ReturnType<typeof EvaluationBatch.evaluationBatchWorkflow> {
  return (require('./gepa/evaluation') as typeof EvaluationBatch).evaluationBatchWorkflow(...args);
}
