"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ReflectionRecordSchema = exports.ExperimentRecordSchema = exports.EvaluationRecordSchema = exports.experimentStateKey = exports.experimentResultKey = exports.STORED_TEXT_MAX_BYTES = void 0;
exports.storedText = storedText;
exports.storedEvaluation = storedEvaluation;
exports.putOnce = putOnce;
exports.recordActivities = recordActivities;
exports.experimentReader = experimentReader;
/**
 * The experiment record in S3 (one prefix per experiment):
 *
 *   experiments/{id}/experiment.json            request, dataset reference (+ sha256), resolved parent
 *   experiments/{id}/records/e-….json           one evaluation batch: case ids, bounded+redacted results
 *   experiments/{id}/records/r-i{n}.json        the reflector's proposal of iteration n
 *   experiments/{id}/records/log-i{n}.json      iteration n's log entry (accept/reject and why)
 *   experiments/{id}/state.json                 latest search-state checkpoint (derived, overwritten)
 *   experiments/{id}/result.json                the final report
 *
 * Keys are deterministic and writes are create-only (the same content again is fine), so
 * every activity here is idempotent under Temporal retries.
 */
const activity_1 = require("@temporalio/activity");
const zod_1 = require("zod");
const core_1 = require("../../core");
const canonical_json_1 = require("../storage/canonical-json");
const storage_1 = require("../storage");
const errors_1 = require("../errors");
const ids_1 = require("../../workflows/gepa/ids");
const objectives_1 = require("../../workflows/gepa/objectives");
const failures_1 = require("./failures");
/** Cap of each stored output/feedback/trace, in UTF-8 bytes (as the reference stores them). */
exports.STORED_TEXT_MAX_BYTES = 16 * 1024;
const experimentResultKey = (experimentId) => `${(0, storage_1.experimentPrefix)(experimentId)}result.json`;
exports.experimentResultKey = experimentResultKey;
const experimentStateKey = (experimentId) => `${(0, storage_1.experimentPrefix)(experimentId)}state.json`;
exports.experimentStateKey = experimentStateKey;
/** Redacted, then bounded head+tail (a loose first cut keeps redaction cheap on huge texts). */
function storedText(text) {
    return (0, core_1.boundText)((0, core_1.redactSecrets)((0, core_1.boundText)(text, 4 * exports.STORED_TEXT_MAX_BYTES)), exports.STORED_TEXT_MAX_BYTES);
}
function storedEvaluation(e) {
    const out = { caseId: e.caseId, score: e.score };
    if (e.output !== undefined)
        out.output = storedText(e.output);
    if (e.feedback !== undefined)
        out.feedback = storedText(e.feedback);
    if (e.trace !== undefined)
        out.trace = storedText(e.trace);
    if (e.objectives !== undefined)
        out.objectives = e.objectives;
    return out;
}
exports.EvaluationRecordSchema = zod_1.z.object({
    experimentId: zod_1.z.string(),
    recordId: zod_1.z.string(),
    phase: zod_1.z.string(),
    iteration: zod_1.z.number().int().optional(),
    split: zod_1.z.enum(['feedback', 'validation', 'holdout']),
    candidateId: zod_1.z.string(),
    seed: zod_1.z.number().int(),
    caseIds: zod_1.z.array(zod_1.z.string()),
    evaluations: zod_1.z.array(core_1.EvaluationSchema),
    summary: zod_1.z.object({ count: zod_1.z.number().int(), total: zod_1.z.number(), mean: zod_1.z.number(), objectives: zod_1.z.record(zod_1.z.string(), zod_1.z.number()) }),
    recordedAt: zod_1.z.string(),
});
exports.ExperimentRecordSchema = zod_1.z.looseObject({
    experimentId: zod_1.z.string(),
    workflowId: zod_1.z.string(),
    algorithm: zod_1.z.literal('gepa'),
    startedAt: zod_1.z.string(),
    dataset: zod_1.z.object({ id: zod_1.z.string(), version: zod_1.z.string(), sha256: zod_1.z.string(), cases: zod_1.z.object({ feedback: zod_1.z.number(), validation: zod_1.z.number(), holdout: zod_1.z.number() }) }),
    parentRevisionId: zod_1.z.string().optional(),
});
const ReportSchema = zod_1.z.looseObject({ experimentId: zod_1.z.string(), status: zod_1.z.string() });
/** The reflector's proposal of one iteration, as stored (records/r-i{n}.json). */
exports.ReflectionRecordSchema = zod_1.z.looseObject({
    iteration: zod_1.z.number().int(),
    component: zod_1.z.string(),
    evaluationRecordId: zod_1.z.string(),
    answer: zod_1.z.unknown(),
    screening: zod_1.z.unknown(),
});
/** Create-only; the same value already stored is success, a different one a non-retryable conflict. */
async function putOnce(objects, key, value) {
    try {
        await objects.putCreateOnly(key, value);
    }
    catch (error) {
        if (!(error instanceof storage_1.PreconditionConflictError))
            throw error;
        const stored = await objects.getJson(key, zod_1.z.unknown());
        if (stored && (0, canonical_json_1.sameJson)(stored.value, JSON.parse(JSON.stringify(value))))
            return;
        throw activity_1.ApplicationFailure.nonRetryable(`${key} already exists with different content (experiment records are write-once)`, failures_1.GEPA_NON_RETRYABLE.record);
    }
}
function recordActivities({ store }) {
    const objects = store.objects;
    return {
        async recordExperimentEvaluation(input) {
            const scores = input.evaluations.map((e) => e.score);
            const record = {
                experimentId: input.experimentId,
                recordId: input.recordId,
                phase: input.phase,
                ...(input.iteration !== undefined ? { iteration: input.iteration } : {}),
                split: input.split,
                candidateId: input.candidateId,
                seed: input.seed,
                caseIds: input.caseIds,
                evaluations: input.evaluations.map(storedEvaluation),
                summary: { count: scores.length, total: scores.reduce((a, b) => a + b, 0), mean: (0, core_1.meanScore)(scores), objectives: (0, objectives_1.objectiveMeans)(input.evaluations) },
                recordedAt: input.at,
            };
            await (0, errors_1.withStoreErrors)(() => putOnce(objects, (0, storage_1.experimentRecordKey)(input.experimentId, input.recordId), record));
        },
        /** Iteration log entries not yet stored, and a checkpoint of the search state. */
        async recordExperimentProgress(input) {
            await (0, errors_1.withStoreErrors)(async () => {
                await (0, storage_1.mapLimit)(input.entries, 8, (entry) => putOnce(objects, (0, storage_1.experimentRecordKey)(input.experimentId, ids_1.recordIds.iterationLog(entry.iteration)), entry));
                await objects.put((0, exports.experimentStateKey)(input.experimentId), input.state);
            });
        },
        async recordExperimentResult({ report }) {
            await (0, errors_1.withStoreErrors)(() => putOnce(objects, (0, exports.experimentResultKey)(report.experimentId), report));
        },
    };
}
/** Read side, for the client and the reflector. */
function experimentReader(store) {
    const objects = store.objects;
    return {
        async experiment(experimentId) {
            return (await objects.getJson((0, storage_1.experimentKey)(experimentId), exports.ExperimentRecordSchema))?.value;
        },
        async result(experimentId) {
            return (await objects.getJson((0, exports.experimentResultKey)(experimentId), ReportSchema))?.value;
        },
        async evaluation(experimentId, recordId) {
            return (await objects.getJson((0, storage_1.experimentRecordKey)(experimentId, recordId), exports.EvaluationRecordSchema))?.value;
        },
        /** Every stored evaluation batch, in record-id order. */
        async evaluations(experimentId) {
            const prefix = (0, storage_1.experimentRecordsPrefix)(experimentId);
            const keys = (await objects.list(`${prefix}e-`)).sort();
            const got = await (0, storage_1.mapLimit)(keys, 8, (key) => objects.getJson(key, exports.EvaluationRecordSchema));
            return got.flatMap((g) => (g ? [g.value] : []));
        },
        /** The full iteration log, oldest first. */
        async iterationLog(experimentId) {
            const keys = (await objects.list(`${(0, storage_1.experimentRecordsPrefix)(experimentId)}log-`)).sort();
            const got = await (0, storage_1.mapLimit)(keys, 8, (key) => objects.getJson(key, core_1.IterationLogEntrySchema));
            return got.flatMap((g) => (g ? [g.value] : [])).sort((a, b) => a.iteration - b.iteration);
        },
        /** The reflector's proposals, by iteration. */
        async reflections(experimentId) {
            const keys = await objects.list(`${(0, storage_1.experimentRecordsPrefix)(experimentId)}r-`);
            const got = await (0, storage_1.mapLimit)(keys, 8, (key) => objects.getJson(key, exports.ReflectionRecordSchema));
            return got.flatMap((g) => (g ? [g.value] : [])).sort((a, b) => a.iteration - b.iteration);
        },
    };
}
//# sourceMappingURL=records.js.map