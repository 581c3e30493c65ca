"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ACTIVE_PARENT = void 0;
exports.prepareActivities = prepareActivities;
const core_1 = require("../../core");
const errors_1 = require("../errors");
const canonical_json_1 = require("../storage/canonical-json");
const storage_1 = require("../storage");
const failures_1 = require("./failures");
const records_1 = require("./records");
/** `parentRevisionId: 'active'` means "whatever is active when the run starts" (scheduled runs). */
exports.ACTIVE_PARENT = 'active';
function indexOf(dataset) {
    return {
        id: dataset.id,
        version: dataset.version,
        sha256: (0, core_1.sha256Hex)((0, canonical_json_1.canonicalJson)(dataset)),
        feedbackIds: dataset.feedback.map((c) => c.id),
        validationIds: dataset.validation.map((c) => c.id),
        holdout: dataset.holdout.map((c) => ({ id: c.id, critical: c.critical })),
    };
}
function prepareActivities({ config, store, datasets }) {
    /** An inline dataset is stored as a frozen dataset (create-only), so records refer to it by id and version. */
    async function resolveDataset(request) {
        if (request.dataset)
            return (0, errors_1.withStoreErrors)(() => store.putDataset(request.dataset));
        return datasets.get(request.datasetRef);
    }
    async function resolveParent(request, scopeKey) {
        if (request.parentRevisionId !== exports.ACTIVE_PARENT)
            return request.parentRevisionId;
        if (!request.skillId)
            throw (0, failures_1.invalidRequest)(`parentRevisionId "${exports.ACTIVE_PARENT}" needs skillId`);
        const active = await (0, errors_1.withStoreErrors)(() => store.readActive(scopeKey, request.skillId));
        if (!(0, core_1.isLivePointer)(active?.pointer))
            throw (0, failures_1.invalidRequest)(`skill ${request.skillId} has no active revision in ${scopeKey} to start from`);
        return active.pointer.revisionId;
    }
    return {
        /**
         * Loads (or freezes) the dataset and re-checks it, resolves the parent revision, and
         * writes experiment.json once. Bad input fails without retry, naming every problem.
         */
        async prepareExperiment(input) {
            const { request } = input;
            let scopeKey;
            try {
                scopeKey = (0, core_1.scopeKey)(request.scope);
            }
            catch (e) {
                throw (0, failures_1.invalidRequest)(`invalid scope: ${e.message}`);
            }
            const dataset = await resolveDataset(request);
            const problems = (0, core_1.datasetProblems)(dataset, request.submit);
            if (problems.length > 0) {
                throw (0, failures_1.invalidRequest)(`dataset ${dataset.id} version ${dataset.version}: ${problems.map((p) => `${p.path.join('.')}: ${p.message}`).join('; ')}`);
            }
            const parentRevisionId = await resolveParent(request, scopeKey);
            if (request.submit) {
                // Fail before any metric call: a submission from a stale or unmanaged parent could never land.
                const active = await (0, errors_1.withStoreErrors)(() => store.readActive(scopeKey, request.skillId));
                const problem = (0, core_1.submissionParentProblem)({ skillId: request.skillId, scopeKey, parentRevisionId: parentRevisionId, active: active?.pointer });
                if (problem)
                    throw (0, failures_1.invalidRequest)(problem);
            }
            const index = indexOf(dataset);
            const { dataset: _inline, ...rest } = request;
            const record = {
                experimentId: input.experimentId,
                workflowId: input.workflowId,
                algorithm: 'gepa',
                startedAt: input.at,
                request: { ...rest, datasetRef: { id: dataset.id, version: dataset.version } },
                dataset: {
                    id: dataset.id,
                    version: dataset.version,
                    sha256: index.sha256,
                    cases: { feedback: dataset.feedback.length, validation: dataset.validation.length, holdout: dataset.holdout.length },
                    criticalHoldoutCases: index.holdout.filter((c) => c.critical).map((c) => c.id),
                },
                ...(parentRevisionId !== undefined ? { parentRevisionId } : {}),
            };
            await (0, errors_1.withStoreErrors)(() => (0, records_1.putOnce)(store.objects, (0, storage_1.experimentKey)(input.experimentId), record));
            return { scopeKey, dataset: index, parentRevisionId, defaultEvaluatorTaskQueue: config.temporal.evaluatorTaskQueue };
        },
        /** Cases of one evaluation batch, for the evaluator (only the batch's workflow history holds them). */
        async loadExperimentCases(input) {
            return datasets.cases(input.dataset, input.caseIds);
        },
    };
}
//# sourceMappingURL=prepare.js.map