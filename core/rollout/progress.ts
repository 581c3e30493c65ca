import type { ConfidenceInterval, CohortCounts } from './sequential';
import type { RolloutDecision } from './decision';

/** Where a rollout is: carried across continue-as-new, and what its status query answers. */
export interface RolloutProgress {
  /** Index into settings.steps of the fraction live now. */
  stepIndex: number;
  fraction: number;
  /** The candidate cohort's judged sessions when the current step began. */
  candidateAtStepStart: number;
  /** Looks at the cohorts so far. */
  checks: number;
  /** The maximum duration passed with `onExpiry: hold`: only an approver decides now. */
  held: boolean;
  last?: RolloutCheck;
}

/** One look at the cohorts and what the test said. */
export interface RolloutCheck {
  at: string;
  candidate: CohortCounts;
  stable: CohortCounts;
  decision: RolloutDecision['kind'];
  reason: string;
  interval?: ConfidenceInterval;
}

/** What a usage tally needs for the test: sessions with a known outcome, and how many succeeded. */
export interface OutcomeCounts {
  n: number;
  unknown: number;
  success: number;
}

/**
 * A cohort's counts for the sequential test: a session is judged when its platform reported
 * an outcome (success, partial, fail or agent_error), and a success only when it reported
 * success — a partial or an agent error counts against the revision the session was given.
 */
export function cohortCounts(tally: OutcomeCounts | undefined): CohortCounts {
  if (!tally) return { judged: 0, success: 0 };
  return { judged: Math.max(0, tally.n - tally.unknown), success: tally.success };
}

export function initialProgress(firstFraction: number): RolloutProgress {
  return { stepIndex: 0, fraction: firstFraction, candidateAtStepStart: 0, checks: 0, held: false };
}

/** The progress after a step up was written: the next fraction, and the step's sample counted from here. */
export function afterStep(p: RolloutProgress, fraction: number, candidateJudged: number): RolloutProgress {
  return { ...p, stepIndex: p.stepIndex + 1, fraction, candidateAtStepStart: candidateJudged };
}

const COMMENT_MAX = 4000;

/** An approver's promote or abort: who, and why. */
export interface ApproverAction {
  reviewer: string;
  comment?: string;
}

/** What is wrong with an approver's action, or [] (zod-free: the rollout workflow's update validators run it). */
export function approverActionProblems(a: unknown): string[] {
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return ['action: expected an object'];
  const { reviewer, comment } = a as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof reviewer !== 'string') problems.push('reviewer: expected a string');
  else if (reviewer.trim().length === 0) problems.push('reviewer: a reviewer name is required');
  else if (reviewer.trim() === 'rollout') problems.push('reviewer: reviewer "rollout" is reserved for the rollout workflow');
  if (comment !== undefined) {
    if (typeof comment !== 'string') problems.push('comment: expected a string');
    else if (comment.length > COMMENT_MAX) problems.push(`comment: at most ${COMMENT_MAX} characters`);
  }
  return problems;
}
