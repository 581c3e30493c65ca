"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EvaluateActivityOutputSchema = exports.EvaluateActivityInputSchema = exports.IterationLogEntrySchema = exports.IterationOutcomeSchema = exports.ExperimentResultSchema = exports.HoldoutComparisonSchema = exports.StopReasonSchema = exports.ExperimentRequestSchema = exports.GepaOptionsSchema = exports.EvaluationSchema = exports.DatasetRefSchema = exports.DatasetSchema = exports.CaseSchema = exports.DATASET_SPLITS = exports.MAX_SPEC_CHARS = exports.MIN_CASES_PER_SPLIT_FOR_SUBMIT = void 0;
exports.optimizableSpecProblems = optimizableSpecProblems;
exports.datasetProblems = datasetProblems;
const zod_1 = require("zod");
const scope_1 = require("./scope");
const skill_1 = require("./skill");
/** Submission needs enough evidence in every split (reference: minimumPromotionCases). */
exports.MIN_CASES_PER_SPLIT_FOR_SUBMIT = 10;
/** Upper bound on a spec's text, counted in Unicode code points (as the reference does). */
exports.MAX_SPEC_CHARS = 64 * 1024;
exports.DATASET_SPLITS = ['feedback', 'validation', 'holdout'];
/** One frozen task. `input`/`expected` are any JSON the application's evaluator understands. */
exports.CaseSchema = zod_1.z.object({
    id: zod_1.z.string().trim().min(1, 'case id must not be empty').max(256, 'case id is longer than 256 characters'),
    input: zod_1.z.json(),
    expected: zod_1.z.json().optional(),
    /** Holdout only: this case must not regress (winner score < seed score blocks promotion). */
    critical: zod_1.z.boolean().default(false),
    metadata: zod_1.z.record(zod_1.z.string(), zod_1.z.string()).optional(),
});
exports.DatasetSchema = zod_1.z.object({
    id: zod_1.z.string().trim().min(1, 'dataset id must not be empty'),
    version: zod_1.z.string().trim().min(1, 'dataset version must not be empty'),
    feedback: zod_1.z.array(exports.CaseSchema),
    validation: zod_1.z.array(exports.CaseSchema),
    holdout: zod_1.z.array(exports.CaseSchema).default([]),
});
/** A dataset stored by id and version (the workflow loads it and re-checks it with `datasetProblems`). */
exports.DatasetRefSchema = zod_1.z.object({
    id: zod_1.z.string().trim().min(1, 'datasetRef.id must not be empty'),
    version: zod_1.z.string().trim().min(1, 'datasetRef.version must not be empty'),
});
/**
 * The evaluator's verdict on one case. Only `score` drives search and selection;
 * `objectives` are reported, never ranked on.
 */
exports.EvaluationSchema = zod_1.z
    .object({
    caseId: zod_1.z.string().min(1, 'evaluation caseId must not be empty'),
    // A bad score must produce a message that names the case, which a field-level
    // error cannot do; the field therefore degrades to NaN and the object check reports it.
    score: zod_1.z.number().min(0).max(1).catch(Number.NaN),
    output: zod_1.z.string().optional(),
    feedback: zod_1.z.string().optional(),
    trace: zod_1.z.string().optional(),
    objectives: zod_1.z.record(zod_1.z.string(), zod_1.z.number({ error: 'objective values must be finite numbers' })).optional(),
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
exports.GepaOptionsSchema = zod_1.z.object({
    /** Reflective mutation attempts (accepted or not). */
    maxIterations: zod_1.z.number().int().min(0).max(1000, 'maxIterations must be at most 1000 (the search state keeps every accepted candidate)').default(10),
    /** Total case evaluations allowed, Validation and Holdout included. */
    maxMetricCalls: zod_1.z.number().int().min(1, 'maxMetricCalls must be at least 1').default(1000),
    reflectionBatchSize: zod_1.z.number().int().min(1, 'reflectionBatchSize must be at least 1').max(100).default(3),
    randomSeed: zod_1.z.number().int().default(1),
    /** Wall-clock limit of the search; exceeding it fails the experiment (no selection, no submission). */
    timeLimitMs: zod_1.z.number().int().positive().optional(),
    /** Required paired Holdout mean delta (winner − seed) for promotion eligibility. */
    minHoldoutImprovement: zod_1.z.number().min(0, 'minHoldoutImprovement must be in [0, 1]').max(1, 'minHoldoutImprovement must be in [0, 1]').default(0),
    /** Task queue of the application's evaluator workers (defaults to the configured one). */
    evaluatorTaskQueue: zod_1.z.string().min(1).optional(),
    /** Cases per evaluate-activity call, so one split fans out across evaluator workers. */
    evaluationChunkSize: zod_1.z.number().int().min(1).max(1000).default(10),
    /** Evaluate-activity calls in flight at once for one split. */
    evaluationConcurrency: zod_1.z.number().int().min(1).max(100).default(4),
});
function codePointLength(text) {
    let n = 0;
    for (const _ of text)
        n++;
    return n;
}
/**
 * Why a spec cannot be optimized or produced by reflection (empty when fine): the
 * reference's validateSpec rules on top of the SkillSpec schema.
 */
function optimizableSpecProblems(spec) {
    const problems = [];
    if (spec.name.trim() === '')
        problems.push('name must not be empty');
    if (spec.description.trim() === '')
        problems.push('description must not be empty');
    if (spec.when_to_use.trim() === '')
        problems.push('when_to_use must not be empty');
    if (spec.steps.length === 0)
        problems.push('at least one step is required');
    spec.steps.forEach((step, i) => {
        if (step.trim() === '')
            problems.push(`step ${i + 1} is empty`);
    });
    spec.pitfalls.forEach((pitfall, i) => {
        if (pitfall.trim() === '')
            problems.push(`pitfall ${i + 1} is empty`);
    });
    const size = [spec.name, spec.description, spec.when_to_use, ...spec.steps, ...spec.pitfalls].reduce((sum, t) => sum + codePointLength(t), 0);
    if (size > exports.MAX_SPEC_CHARS)
        problems.push(`spec has ${size} characters, more than the limit of ${exports.MAX_SPEC_CHARS}`);
    return problems;
}
/**
 * Dataset rules that span splits; shared by request validation (inline datasets)
 * and by the workflow after it loads a `datasetRef`.
 */
function datasetProblems(dataset, submit) {
    const problems = [];
    if (dataset.feedback.length === 0)
        problems.push({ path: ['feedback'], message: 'the feedback split must not be empty' });
    if (dataset.validation.length === 0)
        problems.push({ path: ['validation'], message: 'the validation split must not be empty' });
    const firstSeen = new Map();
    for (const split of exports.DATASET_SPLITS) {
        dataset[split].forEach((item, index) => {
            const id = item.id.trim();
            const earlier = firstSeen.get(id);
            if (earlier === undefined)
                firstSeen.set(id, split);
            else
                problems.push({
                    path: [split, index, 'id'],
                    message: earlier === split
                        ? `case id "${id}" appears twice in the ${split} split`
                        : `case id "${id}" appears in both the ${earlier} and ${split} splits`,
                });
        });
    }
    if (submit) {
        for (const split of exports.DATASET_SPLITS) {
            const count = dataset[split].length;
            if (count < exports.MIN_CASES_PER_SPLIT_FOR_SUBMIT)
                problems.push({
                    path: [split],
                    message: `submit requires at least ${exports.MIN_CASES_PER_SPLIT_FOR_SUBMIT} ${split} cases, got ${count}`,
                });
        }
    }
    return problems;
}
/** Start one GEPA experiment. Exactly one of `dataset` (inline) or `datasetRef` (stored). */
exports.ExperimentRequestSchema = zod_1.z
    .object({
    experimentId: zod_1.z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'experimentId must be 1-128 characters of letters, digits, ".", "_" or "-"')
        .optional(),
    seed: skill_1.SkillSpecSchema,
    dataset: exports.DatasetSchema.optional(),
    datasetRef: exports.DatasetRefSchema.optional(),
    scope: scope_1.ScopeSchema,
    skillId: zod_1.z.string().trim().min(1, 'skillId must not be empty').optional(),
    parentRevisionId: zod_1.z.string().trim().min(1, 'parentRevisionId must not be empty').optional(),
    submit: zod_1.z.boolean().default(false),
    options: exports.GepaOptionsSchema.prefault({}),
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
exports.StopReasonSchema = zod_1.z.enum(['max_iterations', 'metric_budget', 'time_limit', 'error']);
exports.HoldoutComparisonSchema = zod_1.z.object({
    caseCount: zod_1.z.number().int().nonnegative(),
    seedMean: zod_1.z.number(),
    winnerMean: zod_1.z.number(),
    delta: zod_1.z.number(),
    /** Critical holdout cases where the winner scored below the seed. */
    criticalRegressions: zod_1.z.array(zod_1.z.string()),
});
exports.ExperimentResultSchema = zod_1.z
    .object({
    experimentId: zod_1.z.string(),
    status: zod_1.z.enum(['completed', 'failed']),
    stopReason: exports.StopReasonSchema,
    /** Present once the seed was evaluated on Validation. */
    seedValidationMean: zod_1.z.number().optional(),
    /** Present when status is completed (search ended normally and selected a winner). */
    bestCandidateId: zod_1.z.string().optional(),
    bestSpec: skill_1.SkillSpecSchema.optional(),
    bestValidationMean: zod_1.z.number().optional(),
    candidateCount: zod_1.z.number().int().nonnegative().default(0),
    holdout: exports.HoldoutComparisonSchema.optional(),
    promotionEligible: zod_1.z.boolean(),
    promotionReason: zod_1.z.string().min(1),
    metricCallsUsed: zod_1.z.number().int().nonnegative(),
    iterations: zod_1.z.number().int().nonnegative(),
    submittedRevisionId: zod_1.z.string().optional(),
    error: zod_1.z.string().optional(),
})
    .superRefine((r, ctx) => {
    if (r.status === 'completed') {
        for (const key of ['seedValidationMean', 'bestCandidateId', 'bestSpec', 'bestValidationMean']) {
            if (r[key] === undefined)
                ctx.addIssue({ code: 'custom', path: [key], message: `a completed experiment needs ${key}` });
        }
    }
    if (r.status === 'failed' && r.promotionEligible) {
        ctx.addIssue({ code: 'custom', path: ['promotionEligible'], message: 'a failed experiment is never promotion-eligible' });
    }
});
exports.IterationOutcomeSchema = zod_1.z.enum([
    'accepted',
    'not_better',
    'invalid_reflection',
    'no_change',
    'duplicate_candidate',
    'evaluation_failed',
]);
/** One reflective-mutation attempt, kept compact (full evaluations go to the experiment records). */
exports.IterationLogEntrySchema = zod_1.z.object({
    iteration: zod_1.z.number().int().nonnegative(),
    parentId: zod_1.z.string(),
    component: skill_1.SkillComponentSchema,
    accepted: zod_1.z.boolean(),
    outcome: exports.IterationOutcomeSchema,
    reason: zod_1.z.string(),
    pairedSeed: zod_1.z.number().int().optional(),
    parentMinibatchTotal: zod_1.z.number().optional(),
    childMinibatchTotal: zod_1.z.number().optional(),
    childId: zod_1.z.string().optional(),
    childValidationMean: zod_1.z.number().optional(),
    metricCallsAfter: zod_1.z.number().int().nonnegative(),
});
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
exports.EvaluateActivityInputSchema = zod_1.z.object({
    experimentId: zod_1.z.string(),
    candidateId: zod_1.z.string(),
    spec: skill_1.SkillSpecSchema,
    cases: zod_1.z.array(exports.CaseSchema),
    seed: zod_1.z.number().int().min(0),
});
/** What `evaluateCandidate` returns: one evaluation per input case. */
exports.EvaluateActivityOutputSchema = zod_1.z.array(exports.EvaluationSchema);
//# sourceMappingURL=gepa.js.map