/**
 * @skill-evolution/client: what platforms and agents install to use a Skill Evolution
 * deployment — start and wait for learning jobs, decide approvals, roll back, run GEPA
 * experiments, and load published skills (SkillRepository, the skill_load tool). It talks to
 * the deployment's Temporal service and S3 bucket only; workers run elsewhere.
 */
export { Client, Connection } from '@temporalio/client';
export { parseConfig, ConfigError, type EvolutionConfig, type S3Settings } from '../core/config';
export { scopeKey, type Scope, type SkillSpec, type Revision, type RevisionStatus, type SessionEvent, type LearningJobRequest, type ExperimentRequestInput } from '../core';
export type { JobOutcome, RollbackResult } from '../core/governance';
export type { ApprovalResult, ExperimentReport, ExperimentProgress } from '../core/workflow-api';
export { InputError, NotFoundError, StateError, ServiceUnavailableError } from '../core/errors';
export { createSkillStore, type SkillStore } from '../storage';
export { createDataConverter, createPayloadCodec, type PayloadEncryptionOptions } from './payload-encryption';
export { parsePayloadKeys, type PayloadKey } from '../codec/keys';
export { PayloadDecryptionError } from '../codec/aes-gcm-codec';

export { startLearningJob, waitForLearningJob, type StartedLearningJob } from './learning';
export { listLearningJobs, showLearningJob, listQuarantines, type JobView } from './jobs';
export {
  approvalDeadline,
  decideRevision,
  listOpenApprovals,
  listPending,
  listSkillRevisions,
  showRevision,
  type ApprovalScopeFilter,
  type OpenApproval,
  type RevisionView,
} from './approvals';
export { rollbackSkill } from './rollback';
export { importUnmanagedSkill, type ImportSkillResult } from './import-skill';
export {
  cancelExperiment,
  getExperiment,
  putDataset,
  readExperimentRecords,
  resumeExperiment,
  runExperiment,
  startExperiment,
  waitForExperiment,
  type ExperimentStatus,
  type ExperimentView,
  type OptimizationDeps,
  type ResumedExperiment,
  type ResumeOptions,
  type StartedExperiment,
} from './optimization';
export {
  createExperimentSchedule,
  deleteExperimentSchedule,
  describeExperimentSchedule,
  listExperimentSchedules,
  type ExperimentScheduleInput,
  type ExperimentScheduleView,
} from './schedules';
export { scopeMetrics, type GovernanceMetrics } from './metrics';
export { scopeUsage } from './usage';

export { SkillRepository, SkillUnavailableError, type LoadedSkill, type SkillSummary, type RepositoryFreshness } from './skill-repository';
export { SkillLoadTool, type OpenAIFunctionTool } from './skill-load-tool';
export { vercelAiSkillLoadTool, type VercelAiToolSpec } from './vercel-ai-tool';
