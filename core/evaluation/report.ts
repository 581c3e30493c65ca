import type { ArmSetup, CaseResult, EvaluationArm, EvaluationPhase } from './records';
import { mean, pairedDifferences, signOf, tInterval, type Interval } from './stats';

export interface ArmPhaseSummary {
  arm: EvaluationArm;
  phase: EvaluationPhase;
  episodes: number;
  /** Each over the per-seed means (the pairing unit), with a 95% t-interval. */
  passRate: Interval;
  quality: Interval;
  promptTokens: Interval;
  completionTokens: Interval;
  skillLoadRate: Interval;
  /** The judge model's quality score, when the run had a judge: separate from the grader's `quality`. */
  judgeQuality?: Interval;
  /** Arm minus baseline, per seed, then a t-interval over the paired differences; absent for the baseline. */
  vsBaseline?: { passRate: Interval; quality: Interval; tokens: Interval; judgeQuality?: Interval; verdict: 'better' | 'worse' | 'unclear' };
}

export interface CaseComparison {
  arm: EvaluationArm;
  phase: EvaluationPhase;
  caseId: string;
  /** Seeds where the arm passed and the baseline failed, and the other way round. */
  wins: number[];
  losses: number[];
  ties: number;
}

export interface EvaluationReport {
  runId: string;
  family: string;
  expectedEffect: 'helps' | 'hurts';
  model: { agent: string; baseURL: string; judge?: string };
  generatedAt: string;
  arms: EvaluationArm[];
  phases: EvaluationPhase[];
  summaries: ArmPhaseSummary[];
  cases: CaseComparison[];
  /** Every (arm, phase, case, seed) where the baseline passed and the arm failed: negative transfer, listed, not averaged away. */
  negativeTransfer: { arm: EvaluationArm; phase: EvaluationPhase; caseId: string; seed: number; notes: string[] }[];
  /** End to end per arm: test episodes plus learning and optimization. */
  totals: {
    arm: EvaluationArm;
    modelCalls: number;
    promptTokens: number;
    completionTokens: number;
    setup: ArmSetup['cost'];
    skills: ArmSetup['skills'];
    /** The judge's calls on this arm's episodes (the cost of measuring, not of the arm): absent without a judge. */
    judge?: ArmSetup['cost'];
  }[];
}

/** The pairing unit: one value per seed (the mean over the cases of that seed). */
function perSeed(results: readonly CaseResult[], value: (r: CaseResult) => number): Map<string, number> {
  const bySeed = new Map<string, number[]>();
  for (const r of results) {
    const key = String(r.seed).padStart(6, '0');
    bySeed.set(key, [...(bySeed.get(key) ?? []), value(r)]);
  }
  return new Map([...bySeed].map(([k, v]) => [k, mean(v)]));
}

const METRICS = {
  passRate: (r: CaseResult) => (r.pass ? 1 : 0),
  quality: (r: CaseResult) => r.quality,
  promptTokens: (r: CaseResult) => r.promptTokens,
  completionTokens: (r: CaseResult) => r.completionTokens,
  skillLoadRate: (r: CaseResult) => (r.skillsLoaded.length ? 1 : 0),
  tokens: (r: CaseResult) => r.promptTokens + r.completionTokens,
  judgeQuality: (r: CaseResult) => r.judge?.quality ?? 0,
};

/** Rates live in [0, 1] and their differences in [-1, 1]: a t-interval reaching past them is cut there. */
const RATES = new Set<keyof typeof METRICS>(['passRate', 'quality', 'skillLoadRate', 'judgeQuality']);
const judged = (results: readonly CaseResult[]) => results.filter((r) => r.judge);
const within = (i: Interval, low: number, high: number): Interval => ({ ...i, low: Math.max(low, i.low), high: Math.min(high, i.high) });

const interval = (results: readonly CaseResult[], metric: keyof typeof METRICS) => {
  const i = tInterval([...perSeed(results, METRICS[metric]).values()]);
  return RATES.has(metric) ? within(i, 0, 1) : within(i, 0, Infinity);
};
const paired = (arm: readonly CaseResult[], base: readonly CaseResult[], metric: keyof typeof METRICS) => {
  const i = tInterval(pairedDifferences(perSeed(arm, METRICS[metric]), perSeed(base, METRICS[metric])));
  return RATES.has(metric) ? within(i, -1, 1) : i;
};

export function buildReport(
  input: Omit<EvaluationReport, 'summaries' | 'cases' | 'negativeTransfer' | 'totals'> & { results: CaseResult[]; setups: ArmSetup[] },
): EvaluationReport {
  const { results, setups, ...head } = input;
  const of = (arm: EvaluationArm, phase: EvaluationPhase) => results.filter((r) => r.arm === arm && r.phase === phase);
  const summaries: ArmPhaseSummary[] = [];
  const cases: CaseComparison[] = [];
  const negativeTransfer: EvaluationReport['negativeTransfer'] = [];
  for (const phase of input.phases) {
    const base = of('baseline', phase);
    for (const arm of input.arms) {
      const own = of(arm, phase);
      if (own.length === 0) continue;
      const summary: ArmPhaseSummary = {
        arm,
        phase,
        episodes: own.length,
        passRate: interval(own, 'passRate'),
        quality: interval(own, 'quality'),
        promptTokens: interval(own, 'promptTokens'),
        completionTokens: interval(own, 'completionTokens'),
        skillLoadRate: interval(own, 'skillLoadRate'),
      };
      if (judged(own).length) summary.judgeQuality = interval(judged(own), 'judgeQuality');
      if (arm !== 'baseline' && base.length) {
        const passRate = paired(own, base, 'passRate');
        summary.vsBaseline = { passRate, quality: paired(own, base, 'quality'), tokens: paired(own, base, 'tokens'), verdict: signOf(passRate) };
        if (judged(own).length && judged(base).length) summary.vsBaseline.judgeQuality = paired(judged(own), judged(base), 'judgeQuality');
        for (const caseId of [...new Set(own.map((r) => r.caseId))].sort()) {
          const comparison: CaseComparison = { arm, phase, caseId, wins: [], losses: [], ties: 0 };
          for (const r of own.filter((x) => x.caseId === caseId)) {
            const b = base.find((x) => x.caseId === caseId && x.seed === r.seed);
            if (!b) continue;
            if (r.pass && !b.pass) comparison.wins.push(r.seed);
            else if (!r.pass && b.pass) {
              comparison.losses.push(r.seed);
              negativeTransfer.push({ arm, phase, caseId, seed: r.seed, notes: r.notes });
            } else comparison.ties++;
          }
          cases.push(comparison);
        }
      }
      summaries.push(summary);
    }
  }
  const totals = input.arms.map((arm) => {
    const own = results.filter((r) => r.arm === arm);
    const setup = setups.find((s) => s.arm === arm);
    const cost = setup?.cost ?? { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
    return {
      arm,
      modelCalls: own.reduce((a, r) => a + r.modelCalls, 0) + cost.modelCalls,
      promptTokens: own.reduce((a, r) => a + r.promptTokens, 0) + cost.promptTokens,
      completionTokens: own.reduce((a, r) => a + r.completionTokens, 0) + cost.completionTokens,
      setup: cost,
      skills: setup?.skills ?? [],
      ...(judged(own).length
        ? {
            judge: {
              modelCalls: judged(own).length,
              promptTokens: judged(own).reduce((a, r) => a + r.judge!.promptTokens, 0),
              completionTokens: judged(own).reduce((a, r) => a + r.judge!.completionTokens, 0),
            },
          }
        : {}),
    };
  });
  return { ...head, summaries, cases, negativeTransfer, totals };
}
