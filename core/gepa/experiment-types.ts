/**
 * Shapes shared by the experiment workflow, its activities and the client. Types only
 * (plus nothing that runs), so workflow code may import them.
 */
import type { DatasetRef, ExperimentResult, GepaOptions, GepaSearchState, ProposalScreening, RevisionStatus, Scope, SkillComponent, SkillSpec } from '../index';
import type { DatasetSplit } from './splits';

/** The splits of a frozen dataset as the workflow carries them: ids only, cases stay in S3. */
export interface DatasetIndex {
  id: string;
  version: string;
  /** SHA-256 of the stored dataset's canonical JSON (what experiment.json pins). */
  sha256: string;
  feedbackIds: string[];
  validationIds: string[];
  holdout: { id: string; critical: boolean }[];
}

/** Everything a run needs besides the search state; small, carried through continue-as-new. */
export interface ExperimentContext {
  experimentId: string;
  workflowId: string;
  /** Workflow time of the first run. */
  startedAt: string;
  seed: SkillSpec;
  scope: Scope;
  scopeKey: string;
  skillId?: string;
  /** The parent revision after resolving `active` at run start. */
  parentRevisionId?: string;
  submit: boolean;
  options: GepaOptions;
  evaluatorTaskQueue: string;
  dataset: DatasetIndex;
  /** Workflow-time epoch ms after which the search fails (from options.timeLimitMs). */
  deadlineMs?: number;
  iterationsPerRun: number;
}

export interface ContinuedExperiment {
  context: ExperimentContext;
  state: GepaSearchState;
  /** Iterations whose log entries are already in S3. */
  loggedThrough: number;
  /** Runs completed before this one (continue-as-new count). */
  runs: number;
}

/** The workflow's input: a request to start, or the carried state of a continued run. */
export interface ExperimentWorkflowInput {
  /** An ExperimentRequest (validated again by the workflow). */
  request?: unknown;
  continued?: ContinuedExperiment;
  /** Iterations per workflow run before continue-as-new (default 20). */
  iterationsPerRun?: number;
}

export type SubmissionStatus = 'not_requested' | 'skipped' | 'submitted' | 'rejected' | 'stale_parent' | 'failed';

export interface SubmissionOutcome {
  status: SubmissionStatus;
  reason: string;
  revisionId?: string;
  revisionStatus?: RevisionStatus;
  approvalWorkflowId?: string;
}

/** The experiment's result (core's ExperimentResult) plus where it ran and what submission did. */
export type ExperimentReport = ExperimentResult & {
  workflowId: string;
  dataset: DatasetRef;
  parentRevisionId?: string;
  submission: SubmissionOutcome;
  startedAt: string;
  finishedAt: string;
  /** Workflow runs this experiment took (continue-as-new). */
  runs: number;
};

export type ExperimentPhase = 'preparing' | 'search' | 'holdout' | 'submission' | 'done';

/** Answer of the `progress` query. */
export interface ExperimentProgress {
  experimentId: string;
  phase: ExperimentPhase;
  iteration: number;
  maxIterations: number;
  metricCallsUsed: number;
  maxMetricCalls: number;
  candidateCount: number;
  seedValidationMean?: number;
  bestValidationMean?: number;
  runs: number;
}

/** One evaluation batch: a candidate on some cases of one split under one seed. */
export interface EvaluationBatchInput {
  experimentId: string;
  /** Record id in S3 (`records/{recordId}.json`), also part of the child workflow id. */
  recordId: string;
  phase: string;
  iteration?: number;
  dataset: DatasetRef;
  split: DatasetSplit;
  caseIds: string[];
  candidateId: string;
  spec: SkillSpec;
  seed: number;
  evaluator: { taskQueue: string; chunkSize: number; concurrency: number };
  /** Workflow time of the parent, recorded with the evaluations. */
  at: string;
}

/** What a batch returns to the experiment: scores only (outputs and traces are in S3). */
export interface EvaluationBatchResult {
  recordId: string;
  caseIds: string[];
  scores: number[];
  /** Mean of each objective over the cases that report it. */
  objectives: Record<string, number>;
}

export interface ReflectInput {
  experimentId: string;
  iteration: number;
  dataset: DatasetRef;
  parentSpec: SkillSpec;
  component: SkillComponent;
  /** The parent's minibatch evaluation record. */
  evaluationRecordId: string;
  /** [fingerprint, candidate id] of every candidate in the pool (duplicate detection). */
  poolFingerprints: [string, string][];
}

export type ReflectOutput = ProposalScreening;
