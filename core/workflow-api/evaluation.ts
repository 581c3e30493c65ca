// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- core/evaluation is core's own (zod-free) module; the layer rule reads "../evaluation" as the evaluation/ layer
import type { EvaluationArm, EvaluationPhase } from '../evaluation/names';
import { query } from './define';

/** What `evolution evaluate` starts: one paired-arm run of one family (workflows/evaluation.ts). */
export interface EvaluationRunInput {
  runId: string;
  family: string;
  arms: EvaluationArm[];
  phases: EvaluationPhase[];
  /** Seeds per phase (search 1..seeds, confirmation the fresh seeds after them). */
  seeds: number;
  agentModel: string;
  /** The optional judge: a quality score beside the grader's deterministic checks. */
  judgeModel?: string;
  /** Episodes run at once (default 4). */
  concurrency?: number;
}

/** The cases of one arm and phase, as the plan activity returns them: ids only, the family's data stays in the activities. */
export interface EvaluationBlock {
  arm: EvaluationArm;
  phase: EvaluationPhase;
  caseIds: string[];
  seeds: number[];
}

export interface EvaluationBlockProgress {
  arm: EvaluationArm;
  phase: EvaluationPhase;
  done: number;
  total: number;
  /** Found recorded by an earlier run of the same id, so not run again. */
  recordedBefore: number;
  passed: number;
}

export type EvaluationStage = 'planning' | 'setting up' | 'running' | 'reporting' | 'done';

export interface EvaluationRunProgress {
  runId: string;
  family: string;
  stage: EvaluationStage;
  /** What the arms' setup is doing (learning, optimizing), while it does it. */
  message?: string;
  blocks: EvaluationBlockProgress[];
}

export interface EvaluationRunResult {
  runId: string;
  /** S3 keys of the report (the workflow's result stays small). */
  reportJsonKey: string;
  reportHtmlKey: string;
  episodes: number;
  recordedBefore: number;
}

/** The run's activities (evaluation/activities.ts implements them, on the run's activity task queue). */
export interface EvaluationActivities {
  /** Records the run (refusing a reused id with other settings) and returns its blocks. */
  planEvaluation(input: EvaluationRunInput & { startedAt: string }): Promise<EvaluationBlock[]>;
  /** An arm's skills: none, learned through the learning workflow, or optimized by a GEPA experiment; stored once. */
  setupEvaluationArm(input: EvaluationRunInput & { arm: EvaluationArm }): Promise<{ arm: EvaluationArm; skills: string[]; notes: string[] }>;
  runEvaluationCase(input: EvaluationCaseInput): Promise<EvaluationCaseOutcome>;
  writeEvaluationReport(input: EvaluationRunInput & { generatedAt: string }): Promise<{ reportJsonKey: string; reportHtmlKey: string; episodes: number }>;
}

export interface EvaluationCaseInput extends EvaluationRunInput {
  arm: EvaluationArm;
  phase: EvaluationPhase;
  caseId: string;
  seed: number;
}

export interface EvaluationCaseOutcome {
  pass: boolean;
  quality: number;
  /** The case was recorded already (an earlier attempt or run): read back, not run again. */
  recordedBefore: boolean;
}

export const evaluationProgressQuery = query<EvaluationRunProgress>('progress');

/**
 * A run's task queues, functions of its id: the worker `evolution evaluate` starts for the
 * run polls them, so the same command started again (after a crash, on another machine)
 * picks up the same workflow and its unfinished activities. Workflows (the run, and the
 * online arm's learning jobs) on one; the family's activities (cases, setups, and the GEPA
 * evaluator of the optimized arm) on the other.
 */
export function evaluationTaskQueues(runId: string): { workflows: string; activities: string } {
  return { workflows: `evaluate-${runId}`, activities: `evaluate-${runId}-activities` };
}

export const totalOf = (blocks: readonly EvaluationBlockProgress[]) => blocks.reduce((a, b) => a + b.total, 0);
export const doneOf = (blocks: readonly EvaluationBlockProgress[]) => blocks.reduce((a, b) => a + b.done, 0);
