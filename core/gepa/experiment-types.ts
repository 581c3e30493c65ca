/**
 * Shapes shared by the experiment workflow, its activities and the client. Types only
 * (plus nothing that runs), so workflow code may import them.
 */
import type { DatasetRef, EvaluatorDescription, ExperimentResult, ExperimentSpend, GepaOptions } from '../schemas/gepa';
import type { RevisionStatus } from '../schemas/revision';
import type { Scope } from '../schemas/scope';
import type { SkillComponent, SkillSpec } from '../schemas/skill';
import type { ProposalScreening } from './acceptance';
import type { DatasetSplit } from './splits';
import type { BatchSpend, ReflectorUsage } from './spend';
import type { GepaSearchState } from './state';

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
  /**
   * 2: the experiment was prepared by a worker with pre-flight, cache, record reuse,
   * spend, merge, frontiers, selection and clean cancellation. Absent: an experiment
   * prepared by older code, which keeps its original steps on replay.
   */
  searchVersion?: 2;
  /** Resumes so far (0: the original run); names the records written after the search. */
  segment?: number;
  /**
   * What the evaluator last described (runs started on the version that describes it
   * once, beside the batches; see EvaluationBatchInput.cache.described): `seen` false
   * until a batch or the start asked it, `described` absent when it has no versions.
   * Absent on runs started before: each batch asks first.
   */
  evaluatorSeen?: { seen: boolean; described?: EvaluatorDescription };
}

export interface ContinuedExperiment {
  context: ExperimentContext;
  state: GepaSearchState;
  /** The state at the last iteration boundary, what a checkpoint holds (runs on searchVersion 2). */
  committed?: GepaSearchState;
  /** Iterations whose log entries are already in S3. */
  loggedThrough: number;
  /** Runs completed before this one (continue-as-new count). */
  runs: number;
}

/** Continue a stopped experiment from its records (`evolution optimize --resume`). */
export interface ResumeRequest {
  experimentId: string;
  /** 1 for the first resume of this experiment, 2 for the next… */
  segment: number;
  /** New totals (the whole experiment's), when given. */
  maxMetricCalls?: number;
  maxIterations?: number;
}

/** The workflow's input: a request to start, a resume, or the carried state of a continued run. */
export interface ExperimentWorkflowInput {
  /** An ExperimentRequest (validated again by the workflow). */
  request?: unknown;
  resume?: ResumeRequest;
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
  /** The rest is answered by experiments on searchVersion 2. */
  proposalsPossible?: number;
  cacheHits?: number;
  spend?: ExperimentSpend;
  maxTokens?: number;
  maxCostUsd?: number;
  resumes?: number;
  cancelling?: boolean;
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
  /**
   * Present on batches of experiments started on the version with resume and the cache
   * (absent: the original steps). A batch whose record already exists returns it (a
   * resumed experiment re-runs nothing finished); otherwise cached evaluations are used
   * when enabled and the evaluator describes its versions.
   */
  cache?: {
    enabled: boolean;
    hitsSpendBudget: boolean;
    /**
     * The versions the evaluator described to the experiment's last batch (null: it did
     * not describe itself). Present: the batch looks the cache up under them and asks the
     * evaluator again while its cases run; evaluations the cache answered under versions
     * that turn out changed run again. Absent (batches of runs before this): the batch
     * asks the evaluator first.
     */
    described?: EvaluatorDescription | null;
  };
}

/** What a batch returns to the experiment: scores only (outputs and traces are in S3). */
export interface EvaluationBatchResult {
  recordId: string;
  caseIds: string[];
  scores: number[];
  /** Mean of each objective over the cases that report it. */
  objectives: Record<string, number>;
  /** The rest is absent on batches of older runs. Metric calls to charge (evaluations run, plus hits when they spend). */
  charged?: number;
  /** Evaluations answered by the cache. */
  cacheHits?: number;
  /** What the evaluations run (not the hits) spent. */
  spend?: BatchSpend;
  /** Mean tokens and costUsd per case, over the cases that report them (hits included): the candidate's cost. */
  usage?: Record<string, number>;
  /** The versions describeEvaluator reported for this batch (absent: not described, nothing cached). */
  evaluator?: EvaluatorDescription;
  /** Returned from the batch's existing record (a resumed experiment). */
  reused?: boolean;
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
  /** The managed skill the experiment improves: the reflector is shown its rejected candidates. */
  skill?: { scopeKey: string; skillId: string };
}

/** The screening, with the model's token use (absent in answers recorded before it was counted). */
export type ReflectOutput = ProposalScreening & {
  usage?: ReflectorUsage;
  /** The reflection of this iteration was already stored (a resumed experiment): no model call. */
  reused?: boolean;
};
