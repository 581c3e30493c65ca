/** Two-sided 95% Student-t critical values by degrees of freedom (1..30; beyond, the normal 1.96). */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056,
  2.052, 2.048, 2.045, 2.042,
];

export interface Interval {
  mean: number;
  /** 95% confidence interval; equal to mean when there is a single value. */
  low: number;
  high: number;
  n: number;
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

/**
 * The mean with a 95% t-interval. Used on paired differences (arm minus baseline, one per
 * seed), where the pairing removes what the seed does to both arms.
 */
export function tInterval(values: readonly number[]): Interval {
  const n = values.length;
  const m = mean(values);
  if (n < 2) return { mean: m, low: m, high: m, n };
  const variance = values.reduce((a, v) => a + (v - m) ** 2, 0) / (n - 1);
  const half = (T95[n - 2] ?? 1.96) * Math.sqrt(variance / n);
  return { mean: m, low: m - half, high: m + half, n };
}

/** Whether an interval excludes zero, and on which side. */
export function signOf(interval: Interval): 'better' | 'worse' | 'unclear' {
  if (interval.low > 0) return 'better';
  if (interval.high < 0) return 'worse';
  return 'unclear';
}

/** Paired differences: for every key in both, a[key] - b[key], in key order. */
export function pairedDifferences(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number[] {
  return [...a.keys()]
    .filter((k) => b.has(k))
    .sort()
    .map((k) => (a.get(k) as number) - (b.get(k) as number));
}
