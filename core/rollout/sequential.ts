/**
 * The rollout's sequential test: an always-valid confidence sequence for the difference of
 * two success rates, from the normal-mixture SPRT (mSPRT; Robbins 1970, Johari et al.,
 * "Always valid inference", 2017/2022).
 *
 * θ = p_candidate − p_stable. With θ̂ the difference of the observed rates and
 * v = p̂c(1−p̂c)/nc + p̂s(1−p̂s)/ns its estimated variance, the mixture likelihood ratio of
 * H0: θ = θ0 against a N(θ0, τ²) mixture of alternatives is
 *
 *   Λ(θ0) = sqrt(v / (v + τ²)) · exp(τ² (θ̂ − θ0)² / (2 v (v + τ²)))
 *
 * Under H0 it is (asymptotically) a nonnegative martingale, so by Ville's inequality
 * P(Λ ever ≥ 1/α) ≤ α however often it is looked at. Inverting it gives the interval
 *
 *   θ̂ ± sqrt( v (v + τ²) / τ² · ln((v + τ²) / (v α²)) )
 *
 * that contains the true θ at every look, simultaneously, with probability ≥ 1 − α.
 * The variance is plugged in, so validity is asymptotic: the minimum sample per cohort
 * keeps the first looks away from the small-n regime (the simulation test measures the
 * error rate actually reached).
 */

/** Outcomes of one cohort: sessions with a known status, and how many succeeded. */
export interface CohortCounts {
  judged: number;
  success: number;
}

export interface ConfidenceInterval {
  /** Observed p̂_candidate − p̂_stable. */
  estimate: number;
  lower: number;
  upper: number;
}

/** τ: the spread of effects the mixture expects (success-rate differences of about ten points). */
export const DEFAULT_MIXTURE_SD = 0.1;

/** Rates of 0 or 1 would give zero variance (and a degenerate interval): clamp to half a session. */
function smoothedRate(c: CohortCounts): number {
  const p = c.success / c.judged;
  const eps = 0.5 / c.judged;
  return Math.min(1 - eps, Math.max(eps, p));
}

/** The always-valid (1 − α) interval for p_candidate − p_stable; undefined while either cohort has no judged session. */
export function confidenceSequence(candidate: CohortCounts, stable: CohortCounts, alpha: number, mixtureSd: number = DEFAULT_MIXTURE_SD): ConfidenceInterval | undefined {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(mixtureSd > 0)) throw new RangeError(`the mixture standard deviation must be positive, got ${mixtureSd}`);
  if (candidate.judged <= 0 || stable.judged <= 0) return undefined;
  const estimate = candidate.success / candidate.judged - stable.success / stable.judged;
  const pc = smoothedRate(candidate);
  const ps = smoothedRate(stable);
  const v = (pc * (1 - pc)) / candidate.judged + (ps * (1 - ps)) / stable.judged;
  const t2 = mixtureSd * mixtureSd;
  const half = Math.sqrt(((v * (v + t2)) / t2) * Math.log((v + t2) / (v * alpha * alpha)));
  return { estimate, lower: estimate - half, upper: estimate + half };
}
