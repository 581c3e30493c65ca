/**
 * Re-certification of optimized revisions (pure, zod-free: the workflow imports it).
 *
 * A GEPA revision was published on Holdout evidence measured by one evaluator and model
 * version (`evidence.certifiedWith`). When the evaluator on that task queue now reports
 * other versions, the evidence says nothing about the skill any more: the Holdout is run
 * again, for the revision and for the parent it replaced, under the certified seed, and
 * - `recertified`: it still beats the parent by the certified margin (the new versions are recorded);
 * - `stale`: it no longer shows that improvement, or could not be re-run (evidence stale);
 * - `regressed`: it now scores below the parent: a rollback to the parent is proposed.
 * `current`: the evaluator reports the versions it was certified with (nothing to re-run).
 */

export type RecertificationVerdict = 'current' | 'recertified' | 'stale' | 'regressed';

export interface CertifiedVersions {
  evaluatorVersion?: string;
  modelVersion?: string;
}

/** An active optimized revision and what its evidence was certified with. */
export interface CertifiedRevision {
  scopeKey: string;
  skillId: string;
  revisionId: string;
  /** The revision it replaced: the baseline of the Holdout comparison, and the rollback target. */
  parentRevisionId?: string;
  datasetId: string;
  datasetVersion: string;
  evaluatorTaskQueue: string;
  certified: CertifiedVersions;
  holdoutSeed: number;
  minHoldoutImprovement: number;
}

/** What re-certification found for one revision (stored beside its scope; read by CLI, console, metrics). */
export interface CertificationCheck {
  scopeKey: string;
  skillId: string;
  revisionId: string;
  verdict: RecertificationVerdict;
  reason: string;
  checkedAt: string;
  certified: CertifiedVersions;
  /** What the evaluator reports now (absent: it did not describe itself). */
  current?: CertifiedVersions;
  baselineHoldoutScore?: number;
  candidateHoldoutScore?: number;
  delta?: number;
  caseCount?: number;
  /** `regressed`: the rollback proposed to a person (evolution rollback SKILL --revision PARENT). */
  proposedRollbackTo?: string;
}

export interface RecertificationInput {
  /** Cases per evaluate call, and calls in flight per evaluator (defaults 5 and 4). */
  chunkSize?: number;
  concurrency?: number;
  /** Only the optimized revisions of these scopes (absent: every scope). */
  scopeKeys?: string[];
}

export interface RecertificationResult {
  checked: number;
  verdicts: Record<RecertificationVerdict, number>;
  /** The checks stored by this run (`current` ones are not stored: nothing changed). */
  checks: CertificationCheck[];
}

/** The versions an evaluator's describeEvaluator answer names, or undefined when it is not one. */
export function describedVersions(answer: unknown): CertifiedVersions | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { evaluatorVersion, modelVersion } = answer as Record<string, unknown>;
  if (typeof evaluatorVersion !== 'string' || evaluatorVersion === '') return undefined;
  if (modelVersion !== undefined && modelVersion !== null && typeof modelVersion !== 'string') return undefined;
  return { evaluatorVersion, ...(typeof modelVersion === 'string' ? { modelVersion } : {}) };
}

/** Whether the evaluator still reports the versions the evidence was certified with. */
export function sameVersions(certified: CertifiedVersions, current: CertifiedVersions): boolean {
  return (certified.evaluatorVersion ?? null) === (current.evaluatorVersion ?? null) && (certified.modelVersion ?? null) === (current.modelVersion ?? null);
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const versionText = (v: CertifiedVersions) => `${v.evaluatorVersion ?? '(no evaluator version)'}/${v.modelVersion ?? '(no model version)'}`;

/** The verdict after re-running the Holdout (scores in case order, same cases for both). */
export function judgeRecertification(
  revision: CertifiedRevision,
  current: CertifiedVersions,
  scores: { baseline: readonly number[]; candidate: readonly number[] },
  checkedAt: string,
): CertificationCheck {
  const baselineHoldoutScore = mean(scores.baseline);
  const candidateHoldoutScore = mean(scores.candidate);
  const delta = candidateHoldoutScore - baselineHoldoutScore;
  const changed = `evaluator changed from ${versionText(revision.certified)} to ${versionText(current)}`;
  const figures = `holdout ${baselineHoldoutScore.toFixed(4)} → ${candidateHoldoutScore.toFixed(4)} (delta ${delta.toFixed(4)}, ${scores.candidate.length} cases)`;
  const base = {
    scopeKey: revision.scopeKey,
    skillId: revision.skillId,
    revisionId: revision.revisionId,
    checkedAt,
    certified: revision.certified,
    current,
    baselineHoldoutScore,
    candidateHoldoutScore,
    delta,
    caseCount: scores.candidate.length,
  };
  if (delta < 0) {
    return {
      ...base,
      verdict: 'regressed',
      reason: `${changed}: it now scores below the revision it replaced, ${figures}`,
      ...(revision.parentRevisionId ? { proposedRollbackTo: revision.parentRevisionId } : {}),
    };
  }
  if (delta > 0 && delta >= revision.minHoldoutImprovement) return { ...base, verdict: 'recertified', reason: `${changed}: the improvement holds, ${figures}` };
  return {
    ...base,
    verdict: 'stale',
    reason: `${changed}: the improvement it was published for no longer shows (at least ${revision.minHoldoutImprovement} required), ${figures}`,
  };
}

/** Evidence that could not be re-checked (no description, no dataset, no parent): stale, with why. */
export function staleCheck(revision: CertifiedRevision, reason: string, checkedAt: string, current?: CertifiedVersions): CertificationCheck {
  return {
    scopeKey: revision.scopeKey,
    skillId: revision.skillId,
    revisionId: revision.revisionId,
    verdict: 'stale',
    reason,
    checkedAt,
    certified: revision.certified,
    ...(current ? { current } : {}),
  };
}

/** Whether a check leaves the skill's evidence stale (CLI, console and metric say so). */
export function evidenceStale(check: Pick<CertificationCheck, 'verdict'> | undefined): boolean {
  return check?.verdict === 'stale' || check?.verdict === 'regressed';
}
