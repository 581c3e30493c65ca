import { confidenceSequence, DEFAULT_MIXTURE_SD, type CohortCounts, type ConfidenceInterval } from './sequential';

/** How a rollout moves: the fractions it steps through, when it may decide, and what it does at the end of its time. */
export interface RolloutSettings {
  /** Fractions of sessions in the candidate cohort, ascending, each in (0, 1); after the last one comes 100 % (promotion). */
  steps: number[];
  /** Judged sessions each cohort needs before any decision, and the candidate cohort gains at a step before the next step. */
  minSamplePerCohort: number;
  /** After this long without a decision, `onExpiry` happens (a durable timer). */
  maxDurationMs: number;
  onExpiry: 'rollback' | 'hold' | 'promote';
  /** Error rate of the sequential test (P(any wrong decision) ≤ alpha). */
  alpha: number;
  /** A step up needs the candidate shown no worse than this many points (as a fraction) below the stable revision. */
  nonInferiorityMargin: number;
  /** How often the workflow reads the cohorts' counters. */
  checkIntervalMs: number;
  mixtureSd?: number;
}

export const DEFAULT_ROLLOUT_SETTINGS: RolloutSettings = {
  steps: [0.05, 0.25, 0.5],
  minSamplePerCohort: 100,
  maxDurationMs: 7 * 24 * 60 * 60_000,
  onExpiry: 'rollback',
  alpha: 0.05,
  nonInferiorityMargin: 0.05,
  checkIntervalMs: 60_000,
};

export type RolloutDecision =
  | { kind: 'wait'; reason: string; interval?: ConfidenceInterval }
  | { kind: 'rollback'; reason: string; interval: ConfidenceInterval }
  | { kind: 'promote'; reason: string; interval: ConfidenceInterval }
  | { kind: 'step'; fraction: number; reason: string; interval: ConfidenceInterval };

export interface RolloutObservation {
  candidate: CohortCounts;
  stable: CohortCounts;
  /** Index into settings.steps of the fraction live now. */
  stepIndex: number;
  /** The candidate cohort's judged sessions when the current step began. */
  candidateAtStepStart: number;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function describe(i: ConfidenceInterval, alpha: number): string {
  return `success-rate difference ${pct(i.estimate)}, ${pct(1 - alpha)} always-valid interval [${pct(i.lower)}, ${pct(i.upper)}]`;
}

/**
 * One look at the cohorts. Every decision is an event of the always-valid interval leaving a
 * region, so all of them together are wrong with probability at most alpha:
 * - roll back when the whole interval is below 0 (the candidate is worse);
 * - promote when the whole interval is above 0 (the candidate is better);
 * - step up when the interval's lower end is above −margin (not worse by more than the
 *   margin) and the candidate cohort gained the minimum sample at this step; from the last
 *   step, that promotes.
 * Nothing is decided before both cohorts have the minimum sample.
 */
export function decideRollout(obs: RolloutObservation, settings: RolloutSettings): RolloutDecision {
  const min = settings.minSamplePerCohort;
  if (obs.candidate.judged < min || obs.stable.judged < min) {
    return { kind: 'wait', reason: `minimum sample not reached: candidate ${obs.candidate.judged}, stable ${obs.stable.judged} judged sessions of ${min} each` };
  }
  const interval = confidenceSequence(obs.candidate, obs.stable, settings.alpha, settings.mixtureSd ?? DEFAULT_MIXTURE_SD)!;
  const text = describe(interval, settings.alpha);
  if (interval.upper < 0) return { kind: 'rollback', reason: `the candidate lowers the success rate: ${text}`, interval };
  if (interval.lower > 0) return { kind: 'promote', reason: `the candidate raises the success rate: ${text}`, interval };
  const gained = obs.candidate.judged - obs.candidateAtStepStart;
  if (interval.lower > -settings.nonInferiorityMargin && gained >= min) {
    const next = settings.steps[obs.stepIndex + 1];
    const margin = `no worse than ${pct(settings.nonInferiorityMargin)}`;
    if (next === undefined) return { kind: 'promote', reason: `the candidate is ${margin} at the last step: ${text}`, interval };
    return { kind: 'step', fraction: next, reason: `the candidate is ${margin}: ${text}; stepping up to ${pct(next)}`, interval };
  }
  return { kind: 'wait', reason: `undecided: ${text}`, interval };
}

/** Checks settings read from configuration or a request; throws a RangeError naming the bad field. */
export function validateRolloutSettings(s: RolloutSettings): RolloutSettings {
  if (s.steps.length === 0) throw new RangeError('rollout steps: at least one fraction is needed');
  s.steps.forEach((f, i) => {
    if (!(f > 0 && f < 1)) throw new RangeError(`rollout steps: ${f} is not a fraction in (0, 1)`);
    if (i > 0 && f <= s.steps[i - 1]!) throw new RangeError('rollout steps must be ascending');
  });
  if (!Number.isInteger(s.minSamplePerCohort) || s.minSamplePerCohort < 1) throw new RangeError('rollout minimum sample must be a positive integer');
  if (!(s.maxDurationMs > 0)) throw new RangeError('rollout maximum duration must be positive');
  if (!(s.alpha > 0 && s.alpha < 1)) throw new RangeError('rollout alpha must be in (0, 1)');
  if (!(s.nonInferiorityMargin >= 0 && s.nonInferiorityMargin < 1)) throw new RangeError('rollout non-inferiority margin must be in [0, 1)');
  if (!(s.checkIntervalMs > 0)) throw new RangeError('rollout check interval must be positive');
  return s;
}
