/**
 * @skill-evolution/client: what platforms and agents install to use a Skill Evolution
 * deployment — start and wait for learning jobs, decide approvals, roll back, run GEPA
 * experiments, and load published skills (SkillRepository, the skill_load tool). It talks to
 * the deployment's Temporal service and S3 bucket only; workers run elsewhere.
 */
export { Client, Connection } from '@temporalio/client';
export { CLIENT_CHANNEL_ARGS } from '../core/client-channel';
export { parseConfig, ConfigError, type EvolutionConfig, type S3Settings } from '../core/config';
export { scopeKey, type Scope, type SkillSpec, type Revision, type RevisionStatus, type SessionEvent, type LearningJobRequest, type ExperimentRequestInput } from '../core';
export type { JobOutcome, RollbackResult } from '../core/governance';
export type { ApprovalResult, ExperimentReport, ExperimentProgress } from '../core/workflow-api';
export { InputError, NotFoundError, StateError, ServiceUnavailableError } from '../core/errors';
export { createSkillStore, type SkillStore } from '../storage';
export { createDataConverter, createPayloadCodec, type PayloadEncryptionOptions } from './payload-encryption';
export { parsePayloadKeys, type PayloadKey } from '../codec/keys';
export { PayloadDecryptionError } from '../codec/aes-gcm-codec';

import * as learning from './learning';
import * as jobs from './jobs';
import * as jobRetry from './job-retry';
import * as approvals from './approvals';
import * as rollback from './rollback';
import * as rollout from './rollout';
import * as importSkill from './import-skill';
import * as optimization from './optimization';
import * as schedules from './schedules';
import * as metrics from './metrics';
import * as usage from './usage';
import * as payloads from './payloads';
import * as curation from './curation';
import * as recertification from './recertification';
import * as evaluation from './evaluation';
import { atClientBoundary } from './service-errors';

// Every call at the platform boundary: Temporal requests within EVOLUTION_CLIENT_CONNECT_TIMEOUT,
// and a service that does not answer as one ServiceUnavailableError (docs/platform-contract.md, "Errors").
export const startLearningJob = atClientBoundary(learning.startLearningJob);
export const waitForLearningJob = atClientBoundary(learning.waitForLearningJob, { waits: true });
export type { StartedLearningJob } from './learning';
export const storeSessionEvents = atClientBoundary(payloads.storeSessionEvents);
export type { StoredEvents } from './payloads';
export const listLearningJobs = atClientBoundary(jobs.listLearningJobs);
export const showLearningJob = atClientBoundary(jobs.showLearningJob);
export const listQuarantines = atClientBoundary(jobs.listQuarantines);
export type { JobView, JobWait, JobFailure } from './jobs';
export { jobWaitLine } from './jobs';
export const retryLearningJob = atClientBoundary(jobRetry.retryLearningJob);
export type { RetriedLearningJob } from './job-retry';
export { RERUNNABLE_STATES } from './job-retry';
export const approvalDeadline = atClientBoundary(approvals.approvalDeadline);
export const approvalExpiry = atClientBoundary(approvals.approvalExpiry);
export const decideRevision = atClientBoundary(approvals.decideRevision, { waits: true });
export const listOpenApprovals = atClientBoundary(approvals.listOpenApprovals);
export const listPending = atClientBoundary(approvals.listPending);
export const listSkillRevisions = atClientBoundary(approvals.listSkillRevisions);
export const showRevision = atClientBoundary(approvals.showRevision);
export type { ApprovalScopeFilter, OpenApproval, RevisionView } from './approvals';
export const rollbackSkill = atClientBoundary(rollback.rollbackSkill, { waits: true });
export const rolloutStatus = atClientBoundary(rollout.rolloutStatus);
export const promoteRollout = atClientBoundary(rollout.promoteRollout, { waits: true });
export const abortRollout = atClientBoundary(rollout.abortRollout, { waits: true });
export type { ApproverAction, RolloutStatus } from './rollout';
export const importUnmanagedSkill = atClientBoundary(importSkill.importUnmanagedSkill, { waits: true });
export type { ImportSkillResult } from './import-skill';
export const cancelExperiment = atClientBoundary(optimization.cancelExperiment, { waits: true });
export const getExperiment = atClientBoundary(optimization.getExperiment);
export const putDataset = atClientBoundary(optimization.putDataset);
export const putDatasetFile = atClientBoundary(optimization.putDatasetFile);
export { readJsonFile } from './optimization';
export const readExperimentRecords = atClientBoundary(optimization.readExperimentRecords);
export const resumeExperiment = atClientBoundary(optimization.resumeExperiment);
export const runExperiment = atClientBoundary(optimization.runExperiment, { waits: true });
export const startExperiment = atClientBoundary(optimization.startExperiment);
export const waitForExperiment = atClientBoundary(optimization.waitForExperiment, { waits: true });
export type { ExperimentStatus, ExperimentView, OptimizationDeps, ResumedExperiment, ResumeOptions, StartedExperiment } from './optimization';
export const createExperimentSchedule = atClientBoundary(schedules.createExperimentSchedule);
export const deleteExperimentSchedule = atClientBoundary(schedules.deleteExperimentSchedule);
export const describeExperimentSchedule = atClientBoundary(schedules.describeExperimentSchedule);
export const listExperimentSchedules = atClientBoundary(schedules.listExperimentSchedules);
export type { ExperimentScheduleInput, ExperimentScheduleView, OverlapPolicy } from './schedules';
export { OVERLAP_POLICIES } from './schedules';
export const scopeMetrics = atClientBoundary(metrics.scopeMetrics);
export const recountScopeMetrics = atClientBoundary(metrics.recountScopeMetrics);
export const staleEvidence = atClientBoundary(metrics.staleEvidence);
export { governanceMetricsOf } from './metrics';
export type { GovernanceMetrics } from './metrics';
export const scopeUsage = atClientBoundary(usage.scopeUsage);
export const curationDryRun = atClientBoundary(curation.curationDryRun);
export const pinSkill = atClientBoundary(curation.pinSkill);
export const runCuration = atClientBoundary(curation.runCuration, { waits: true });
export const reviveSkills = atClientBoundary(curation.reviveSkills, { waits: true });
export const setCurationSchedule = atClientBoundary(curation.setCurationSchedule);
export const describeCurationSchedule = atClientBoundary(curation.describeCurationSchedule);
export const removeCurationSchedule = atClientBoundary(curation.removeCurationSchedule);
export type { CurationReport, CurationOptions, CurationScheduleInput, CurationScheduleView } from './curation';
export const certificationCheck = atClientBoundary(recertification.certificationCheck);
export const certificationChecks = atClientBoundary(recertification.certificationChecks);
export const runRecertification = atClientBoundary(recertification.runRecertification, { waits: true });
export const scheduleRecertification = atClientBoundary(recertification.scheduleRecertification);
export const getEvaluationRun = atClientBoundary(evaluation.getEvaluationRun);
export const evaluationProgress = atClientBoundary(evaluation.evaluationProgress);
export const readEvaluationRun = atClientBoundary(evaluation.readEvaluationRun);
export const listEvaluationRuns = atClientBoundary(evaluation.listEvaluationRuns);
export const evaluationReportHtml = atClientBoundary(evaluation.evaluationReportHtml);
export type { EvaluationRunView } from './evaluation';
export { clientTimeoutMs, DEFAULT_CLIENT_CONNECT_TIMEOUT_MS, withinClientDeadline, unreachableServiceOf } from './service-errors';

export { SkillRepository, SkillUnavailableError, type LoadedSkill, type SkillSummary, type RepositoryFreshness } from './skill-repository';
export { SkillLoadTool, type OpenAIFunctionTool } from './skill-load-tool';
export { vercelAiSkillLoadTool, type VercelAiToolSpec } from './vercel-ai-tool';
