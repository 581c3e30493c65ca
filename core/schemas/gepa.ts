import { z } from 'zod';
import { ScopeSchema } from './scope';
import { SkillComponentSchema, SkillSpecSchema, type SkillSpec } from './skill';
import { DATASET_SPLITS, type DatasetSplit } from '../gepa/splits';

/** Submission needs enough evidence in every split (reference: minimumPromotionCases). */
export const MIN_CASES_PER_SPLIT_FOR_SUBMIT = 10;
/** Upper bound on a spec's text, counted in Unicode code points (as the reference does). */
export const MAX_SPEC_CHARS = 64 * 1024;

export { DATASET_SPLITS, type DatasetSplit } from '../gepa/splits';

/** One frozen task. `input`/`expected` are any JSON the application's evaluator understands. */
export const CaseSchema = z.object({
  id: z.string().trim().min(1, 'case id must not be empty').max(256, 'case id is longer than 256 characters'),
  input: z.json(),
  expected: z.json().optional(),
  /** Holdout only: this case must not regress (winner score < seed score blocks promotion). */
  critical: z.boolean().default(false),
  metadata: z.record(z.string(), z.string()).optional(),
});
export type Case = z.infer<typeof CaseSchema>;

export const DatasetSchema = z.object({
  id: z.string().trim().min(1, 'dataset id must not be empty'),
  version: z.string().trim().min(1, 'dataset version must not be empty'),
  feedback: z.array(CaseSchema),
  validation: z.array(CaseSchema),
  holdout: z.array(CaseSchema).default([]),
});
export type Dataset = z.infer<typeof DatasetSchema>;

/** A dataset stored by id and version (the workflow loads it and re-checks it with `datasetProblems`). */
export const DatasetRefSchema = z.object({
  id: z.string().trim().min(1, 'datasetRef.id must not be empty'),
  version: z.string().trim().min(1, 'datasetRef.version must not be empty'),
});
export type DatasetRef = z.infer<typeof DatasetRefSchema>;

/**
 * The evaluator's verdict on one case. Only `score` drives search and selection;
 * `objectives` are reported, never ranked on.
 */
export const EvaluationSchema = z
  .object({
    caseId: z.string().min(1, 'evaluation caseId must not be empty'),
    // A bad score must produce a message that names the case, which a field-level
    // error cannot do; the field therefore degrades to NaN and the object check reports it.
    score: z.number().min(0).max(1).catch(Number.NaN),
    output: z.string().optional(),
    feedback: z.string().optional(),
    trace: z.string().optional(),
    objectives: z.record(z.string(), z.number({ error: 'objective values must be finite numbers' })).optional(),
    /** What running this case cost the application (its agent's model tokens, money): counted against maxTokens / maxCostUsd. */
    tokens: z.number({ error: 'tokens must be a finite number ≥ 0' }).min(0, 'tokens must be a finite number ≥ 0').optional(),
    costUsd: z.number({ error: 'costUsd must be a finite number ≥ 0' }).min(0, 'costUsd must be a finite number ≥ 0').optional(),
    /**
     * The versions that produced this verdict, when the evaluator reports them per case. An
     * evaluation whose versions differ from what describeEvaluator answered for its batch (a
     * rolling deploy of the evaluator) is recorded but never cached.
     */
    evaluatorVersion: z.string().min(1).max(200).optional(),
    modelVersion: z.string().min(1).max(200).optional(),
  })
  .superRefine((e, ctx) => {
    if (!Number.isFinite(e.score)) {
      ctx.addIssue({
        code: 'custom',
        path: ['score'],
        message: `evaluation for case "${e.caseId}": score must be a finite number in [0, 1]`,
      });
    }
  });
export type Evaluation = z.infer<typeof EvaluationSchema>;

export const EvaluationCacheOptionsSchema = z.object({
  enabled: z.boolean().default(true),
  /** Whether a cache hit counts as a metric call (default: it does not, it costs nothing). */
  hitsSpendBudget: z.boolean().default(false),
});

/** GEPA's merge: combine the components of two frontier candidates that descend from one ancestor. */
export const MergeOptionsSchema = z.object({
  enabled: z.boolean().default(false),
  /** Merge attempts at most (each takes one iteration). */
  maxMerges: z.number().int().min(1).max(50).default(5),
  /** Validation cases the merged candidate is first compared on. */
  subsampleSize: z.number().int().min(1).max(100).default(5),
});
export type MergeOptions = z.infer<typeof MergeOptionsSchema>;

export const FRONTIER_TYPES = ['instance', 'objective', 'hybrid'] as const;
export type FrontierType = (typeof FRONTIER_TYPES)[number];
export const FrontierObjectiveSchema = z.object({
  /** `score` (the Validation mean), `tokens`, `costUsd`, or a name the evaluator reports in `objectives`. */
  name: z.string().min(1),
  direction: z.enum(['maximize', 'minimize']),
});
export type FrontierObjective = z.infer<typeof FrontierObjectiveSchema>;
/** Which candidates parent sampling (and merge) draws from: per case, per objective, or both. */
export const FrontierOptionsSchema = z.object({
  type: z.enum(FRONTIER_TYPES).default('instance'),
  objectives: z
    .array(FrontierObjectiveSchema)
    .min(1)
    .default([
      { name: 'score', direction: 'maximize' },
      { name: 'tokens', direction: 'minimize' },
    ]),
});
export type FrontierOptions = z.infer<typeof FrontierOptionsSchema>;

export const SELECTION_METHODS = ['validation', 'multi_seed', 'k_fold'] as const;
export type SelectionMethod = (typeof SELECTION_METHODS)[number];
/** How the winner is chosen from the pool after search. */
export const SelectionOptionsSchema = z.object({
  method: z.enum(SELECTION_METHODS).default('validation'),
  /** multi_seed: Validation seeds in all (the search's own plus seeds − 1 more). */
  seeds: z.number().int().min(2).max(10).default(3),
  /** multi_seed: candidates (best Validation means) re-evaluated under the extra seeds. */
  finalists: z.number().int().min(2).max(10).default(3),
  /** k_fold: folds of the Validation split. */
  folds: z.number().int().min(2).max(20).default(5),
});
export type SelectionOptions = z.infer<typeof SelectionOptionsSchema>;

export const GepaOptionsSchema = z.object({
  /** Reflective mutation attempts (accepted or not). */
  maxIterations: z.number().int().min(0).max(1000, 'maxIterations must be at most 1000 (the search state keeps every accepted candidate)').default(10),
  /** Total case evaluations allowed, Validation and Holdout included. */
  maxMetricCalls: z.number().int().min(1, 'maxMetricCalls must be at least 1').default(1000),
  reflectionBatchSize: z.number().int().min(1, 'reflectionBatchSize must be at least 1').max(100).default(3),
  randomSeed: z.number().int().default(1),
  /** Wall-clock limit of the search; exceeding it fails the experiment (no selection, no submission). */
  timeLimitMs: z.number().int().positive().optional(),
  /** Required paired Holdout mean delta (winner − seed) for promotion eligibility. */
  minHoldoutImprovement: z.number().min(0, 'minHoldoutImprovement must be in [0, 1]').max(1, 'minHoldoutImprovement must be in [0, 1]').default(0),
  /** Task queue of the application's evaluator workers (defaults to the configured one). */
  evaluatorTaskQueue: z.string().min(1).optional(),
  /** Cases per evaluate-activity call, so one split fans out across evaluator workers. */
  evaluationChunkSize: z.number().int().min(1).max(1000).default(10),
  /** Evaluate-activity calls in flight at once for one split. */
  evaluationConcurrency: z.number().int().min(1).max(100).default(4),
  /**
   * Reuse of earlier evaluations of the same candidate content on the same case content
   * under the same seed, evaluator version and model version (docs/optimization.md).
   */
  evaluationCache: EvaluationCacheOptionsSchema.prefault({}),
  /** Stop the search before the evaluator's and reflector's tokens would exceed this. */
  maxTokens: z.number().int().positive('maxTokens must be a positive integer').optional(),
  /** Stop the search before the evaluator's and reflector's cost (USD) would exceed this. */
  maxCostUsd: z.number().positive('maxCostUsd must be positive').optional(),
  /** Prices of the reflector model, so its tokens count against maxCostUsd (without it they cost 0). */
  reflectorPricing: z
    .object({
      promptUsdPerMillionTokens: z.number().min(0),
      completionUsdPerMillionTokens: z.number().min(0),
    })
    .optional(),
  merge: MergeOptionsSchema.prefault({}),
  frontier: FrontierOptionsSchema.prefault({}),
  selection: SelectionOptionsSchema.prefault({}),
});
export type GepaOptions = z.infer<typeof GepaOptionsSchema>;

function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Why a spec cannot be optimized or produced by reflection (empty when fine): the
 * reference's validateSpec rules on top of the SkillSpec schema.
 */
export function optimizableSpecProblems(spec: SkillSpec): string[] {
  const problems: string[] = [];
  if (spec.name.trim() === '') problems.push('name must not be empty');
  if (spec.description.trim() === '') problems.push('description must not be empty');
  if (spec.when_to_use.trim() === '') problems.push('when_to_use must not be empty');
  if (spec.steps.length === 0) problems.push('at least one step is required');
  spec.steps.forEach((step, i) => {
    if (step.trim() === '') problems.push(`step ${i + 1} is empty`);
  });
  spec.pitfalls.forEach((pitfall, i) => {
    if (pitfall.trim() === '') problems.push(`pitfall ${i + 1} is empty`);
  });
  const size = [spec.name, spec.description, spec.when_to_use, ...spec.steps, ...spec.pitfalls].reduce((sum, t) => sum + codePointLength(t), 0);
  if (size > MAX_SPEC_CHARS) problems.push(`spec has ${size} characters, more than the limit of ${MAX_SPEC_CHARS}`);
  return problems;
}

export interface DatasetProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Dataset rules that span splits; shared by request validation (inline datasets)
 * and by the workflow after it loads a `datasetRef`.
 */
export function datasetProblems(dataset: Readonly<Record<DatasetSplit, readonly { id: string }[]>>, submit: boolean): DatasetProblem[] {
  const problems: DatasetProblem[] = [];
  if (dataset.feedback.length === 0) problems.push({ path: ['feedback'], message: 'the feedback split must not be empty' });
  if (dataset.validation.length === 0) problems.push({ path: ['validation'], message: 'the validation split must not be empty' });
  const firstSeen = new Map<string, DatasetSplit>();
  for (const split of DATASET_SPLITS) {
    dataset[split].forEach((item, index) => {
      const id = item.id.trim();
      const earlier = firstSeen.get(id);
      if (earlier === undefined) firstSeen.set(id, split);
      else
        problems.push({
          path: [split, index, 'id'],
          message:
            earlier === split
              ? `case id "${id}" appears twice in the ${split} split`
              : `case id "${id}" appears in both the ${earlier} and ${split} splits`,
        });
    });
  }
  if (submit) {
    for (const split of DATASET_SPLITS) {
      const count = dataset[split].length;
      if (count < MIN_CASES_PER_SPLIT_FOR_SUBMIT)
        problems.push({
          path: [split],
          message: `submit requires at least ${MIN_CASES_PER_SPLIT_FOR_SUBMIT} ${split} cases, got ${count}`,
        });
    }
  }
  return problems;
}

/** Start one GEPA experiment. Exactly one of `dataset` (inline) or `datasetRef` (stored). */
export const ExperimentRequestSchema = z
  .object({
    experimentId: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'experimentId must be 1-128 characters of letters, digits, ".", "_" or "-"')
      .optional(),
    seed: SkillSpecSchema,
    dataset: DatasetSchema.optional(),
    datasetRef: DatasetRefSchema.optional(),
    scope: ScopeSchema,
    skillId: z.string().trim().min(1, 'skillId must not be empty').optional(),
    parentRevisionId: z.string().trim().min(1, 'parentRevisionId must not be empty').optional(),
    submit: z.boolean().default(false),
    options: GepaOptionsSchema.prefault({}),
  })
  .superRefine((r, ctx) => {
    for (const problem of optimizableSpecProblems(r.seed)) {
      ctx.addIssue({ code: 'custom', path: ['seed'], message: `seed skill: ${problem}` });
    }
    const given = Number(r.dataset !== undefined) + Number(r.datasetRef !== undefined);
    if (given !== 1) {
      ctx.addIssue({ code: 'custom', path: ['dataset'], message: 'give exactly one of dataset (inline) or datasetRef' });
    }
    if (r.dataset) {
      for (const problem of datasetProblems(r.dataset, r.submit)) {
        ctx.addIssue({ code: 'custom', path: ['dataset', ...problem.path], message: problem.message });
      }
    }
    if (r.submit && !r.skillId) {
      ctx.addIssue({ code: 'custom', path: ['skillId'], message: 'submit requires skillId (submission updates an existing managed skill)' });
    }
    if (r.submit && !r.parentRevisionId) {
      ctx.addIssue({
        code: 'custom',
        path: ['parentRevisionId'],
        message: 'submit requires parentRevisionId (the active revision the experiment started from)',
      });
    }
  });
export type ExperimentRequest = z.infer<typeof ExperimentRequestSchema>;
export type ExperimentRequestInput = z.input<typeof ExperimentRequestSchema>;

export const StopReasonSchema = z.enum(['max_iterations', 'metric_budget', 'token_budget', 'cost_budget', 'time_limit', 'cancelled', 'error']);
export type StopReason = z.infer<typeof StopReasonSchema>;

export const HoldoutComparisonSchema = z.object({
  caseCount: z.number().int().nonnegative(),
  seedMean: z.number(),
  winnerMean: z.number(),
  delta: z.number(),
  /** Critical holdout cases where the winner scored below the seed. */
  criticalRegressions: z.array(z.string()),
});
export type HoldoutComparison = z.infer<typeof HoldoutComparisonSchema>;

/** Tokens and money, as the evaluator reports them per case and the reflector model per call. */
export const SpendSchema = z.object({ tokens: z.number().min(0), costUsd: z.number().min(0) });
export type Spend = z.infer<typeof SpendSchema>;
export const ExperimentSpendSchema = SpendSchema.extend({ evaluator: SpendSchema, reflector: SpendSchema });
export type ExperimentSpend = z.infer<typeof ExperimentSpendSchema>;

/** How the winner was chosen, with what each method measured. */
export const SelectionReportSchema = z.object({
  method: z.enum(SELECTION_METHODS),
  winnerId: z.string(),
  /** multi_seed: each finalist's mean over every seed's Validation run, best first. */
  finalists: z.array(z.object({ candidateId: z.string(), validationMean: z.number(), multiSeedMean: z.number(), seeds: z.array(z.number().int()) })).optional(),
  /** k_fold: per fold, the candidate best on the other folds and its score on this one. */
  folds: z.array(z.object({ fold: z.number().int(), caseCount: z.number().int(), chosenId: z.string(), heldOutMean: z.number() })).optional(),
  /** k_fold: mean held-out score of the per-fold choices (how well choosing on Validation generalises). */
  crossValidatedMean: z.number().optional(),
});
export type SelectionReport = z.infer<typeof SelectionReportSchema>;

export const ExperimentResultSchema = z
  .object({
    experimentId: z.string(),
    status: z.enum(['completed', 'failed', 'cancelled']),
    stopReason: StopReasonSchema,
    /** Present once the seed was evaluated on Validation. */
    seedValidationMean: z.number().optional(),
    /** Present when status is completed (search ended normally and selected a winner). */
    bestCandidateId: z.string().optional(),
    bestSpec: SkillSpecSchema.optional(),
    bestValidationMean: z.number().optional(),
    candidateCount: z.number().int().nonnegative().default(0),
    holdout: HoldoutComparisonSchema.optional(),
    promotionEligible: z.boolean(),
    promotionReason: z.string().min(1),
    metricCallsUsed: z.number().int().nonnegative(),
    iterations: z.number().int().nonnegative(),
    submittedRevisionId: z.string().optional(),
    error: z.string().optional(),
    /** Proposals (iterations: reflections and merges) the budget allowed at the start (pre-flight), and how many ran. */
    proposalsPossible: z.number().int().nonnegative().optional(),
    proposals: z.number().int().nonnegative().optional(),
    /** Evaluations answered from the evaluation cache instead of the evaluator. */
    cacheHits: z.number().int().nonnegative().optional(),
    spend: ExperimentSpendSchema.optional(),
    merges: z.object({ attempted: z.number().int().nonnegative(), accepted: z.number().int().nonnegative() }).optional(),
    selection: SelectionReportSchema.optional(),
    /** Times this experiment was resumed (`evolution optimize --resume`). */
    resumes: z.number().int().nonnegative().optional(),
  })
  .superRefine((r, ctx) => {
    if (r.status === 'completed') {
      for (const key of ['seedValidationMean', 'bestCandidateId', 'bestSpec', 'bestValidationMean'] as const) {
        if (r[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `a completed experiment needs ${key}` });
      }
    }
    if (r.status !== 'completed' && r.promotionEligible) {
      ctx.addIssue({ code: 'custom', path: ['promotionEligible'], message: `a ${r.status} experiment is never promotion-eligible` });
    }
  });
export type ExperimentResult = z.infer<typeof ExperimentResultSchema>;

export const IterationOutcomeSchema = z.enum([
  'accepted',
  'not_better',
  'invalid_reflection',
  'no_change',
  'duplicate_candidate',
  'evaluation_failed',
]);
export type IterationOutcome = z.infer<typeof IterationOutcomeSchema>;

/** One reflective-mutation or merge attempt, kept compact (full evaluations go to the experiment records). */
export const IterationLogEntrySchema = z.object({
  iteration: z.number().int().nonnegative(),
  /** Absent: a reflective mutation (every entry before merges existed). */
  kind: z.enum(['reflection', 'merge']).optional(),
  /** merge: the two frontier candidates combined and their common ancestor (parentId is the first). */
  mergeParentIds: z.array(z.string()).optional(),
  ancestorId: z.string().optional(),
  parentId: z.string(),
  /** The component a reflection rewrote (absent for a merge). */
  component: SkillComponentSchema.optional(),
  accepted: z.boolean(),
  outcome: IterationOutcomeSchema,
  reason: z.string(),
  pairedSeed: z.number().int().optional(),
  parentMinibatchTotal: z.number().optional(),
  childMinibatchTotal: z.number().optional(),
  childId: z.string().optional(),
  childValidationMean: z.number().optional(),
  metricCallsAfter: z.number().int().nonnegative(),
  /** Evaluations of this iteration answered by the cache. */
  cacheHits: z.number().int().nonnegative().optional(),
});
export type IterationLogEntry = z.infer<typeof IterationLogEntrySchema>;

/**
 * The cross-language evaluator contract: `evaluate(candidate, cases, seed) → evaluations`.
 *
 * The application implements an activity named `evaluateCandidate` (any Temporal SDK) on
 * its own task queue. It receives this input as plain JSON and must:
 * - run the candidate skill `spec` on every case in `cases`, in isolation from the
 *   published library and without production credentials or side-effecting tools;
 * - return exactly one `Evaluation` per input case (same `caseId`s, any order), with a
 *   finite `score` in [0, 1]; `output`, `feedback` and `trace` are optional but are what
 *   the reflector learns from, so they should say concretely what went wrong;
 * - use `seed` (an integer in [0, 2^31)) to fix every random choice of the task
 *   environment, so two candidates evaluated with the same seed face the same
 *   conditions (paired comparison). It should be idempotent: Temporal may retry it.
 * `candidateId` and `experimentId` are for caching and logging only.
 */
export const EvaluateActivityInputSchema = z.object({
  experimentId: z.string(),
  candidateId: z.string(),
  spec: SkillSpecSchema,
  cases: z.array(CaseSchema),
  seed: z.number().int().min(0),
});
export type EvaluateActivityInput = z.infer<typeof EvaluateActivityInputSchema>;

/** What `evaluateCandidate` returns: one evaluation per input case. */
export const EvaluateActivityOutputSchema = z.array(EvaluationSchema);
export type EvaluateActivityOutput = z.infer<typeof EvaluateActivityOutputSchema>;

/**
 * What the optional `describeEvaluator` activity (no input) returns: the versions whose
 * verdicts may be reused. A cached evaluation is used only while both are unchanged, and
 * an optimized revision's evidence is marked stale when they change. An evaluator without
 * this activity still works; its evaluations are never cached and never re-certified.
 */
export const EvaluatorDescriptionSchema = z.object({
  /** Changes whenever scoring could change: the evaluator's code, rubric, tools, environment. */
  evaluatorVersion: z.string().min(1, 'evaluatorVersion must not be empty').max(200),
  /** The model the agent under evaluation runs on, pinned (e.g. "gpt-4.1-2025-04-14"); absent: no model. */
  modelVersion: z.string().min(1, 'modelVersion must not be empty').max(200).optional(),
});
export type EvaluatorDescription = z.infer<typeof EvaluatorDescriptionSchema>;
