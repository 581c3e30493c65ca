"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.putDataset = putDataset;
exports.readJsonFile = readJsonFile;
exports.putDatasetFile = putDatasetFile;
exports.resolveRequest = resolveRequest;
exports.refuseUnsubmittable = refuseUnsubmittable;
exports.startExperiment = startExperiment;
exports.waitForExperiment = waitForExperiment;
exports.runExperiment = runExperiment;
exports.getExperiment = getExperiment;
exports.readExperimentRecords = readExperimentRecords;
/**
 * Offline optimization from the platform side: store frozen datasets, start GEPA
 * experiments, read their progress and results.
 *
 * Datasets are stored once, frozen (`datasets/{id}/{version}.json`, create-only). A
 * request with an inline dataset is turned into a reference to that stored dataset
 * before the workflow starts, so no case ever enters workflow history; experiment.json
 * pins the dataset by id, version and SHA-256.
 */
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const client_1 = require("@temporalio/client");
const core_1 = require("../core");
const records_1 = require("../activities/gepa/records");
const storage_1 = require("../activities/storage");
const workflows_1 = require("../workflows");
const failure_1 = require("../workflows/gepa/failure");
const ids_1 = require("../workflows/gepa/ids");
const errors_1 = require("./errors");
/** Stores a dataset as frozen; the same content again is fine, different content under its id and version is not. */
async function putDataset(store, value) {
    // Credentials in cases never reach storage (nor, through the cases, the evaluator's answers in history).
    const dataset = (0, core_1.redactDataset)((0, errors_1.parseInput)(core_1.DatasetSchema, value, 'dataset'));
    const problems = (0, core_1.datasetProblems)(dataset, false).map((p) => `${p.path.join('.')}: ${p.message}`);
    if (problems.length > 0)
        throw new errors_1.InputError(`invalid dataset ${dataset.id} version ${dataset.version}:\n${problems.map((p) => `  ✖ ${p}`).join('\n')}`);
    try {
        return { dataset: await store.putDataset(dataset), problems: (0, core_1.datasetProblems)(dataset, true).map((p) => p.message) };
    }
    catch (e) {
        if (e instanceof storage_1.PreconditionConflictError || (0, storage_1.isNonRetryableStorageError)(e))
            throw new errors_1.StateError(e.message);
        throw e;
    }
}
function readJsonFile(path, what) {
    let text;
    try {
        text = (0, node_fs_1.readFileSync)(path, 'utf8');
    }
    catch (e) {
        throw new errors_1.InputError(`cannot read ${what} ${path}: ${e.message}`);
    }
    try {
        return JSON.parse(text);
    }
    catch (e) {
        throw new errors_1.InputError(`${what} ${path} is not JSON: ${e.message}`);
    }
}
/** `evolution dataset put FILE`. `submitProblems` says why the dataset cannot back a submission (fewer than 10 cases in a split). */
async function putDatasetFile(store, path) {
    const { dataset, problems } = await putDataset(store, readJsonFile(path, 'dataset file'));
    return { dataset: { id: dataset.id, version: dataset.version }, cases: { feedback: dataset.feedback.length, validation: dataset.validation.length, holdout: dataset.holdout.length }, submitProblems: problems };
}
/**
 * Checks a request the way the workflow will (schema, the stored dataset, the budget) and
 * returns it with an inline dataset replaced by its stored reference.
 */
async function resolveRequest(store, request) {
    const req = (0, errors_1.parseInput)(core_1.ExperimentRequestSchema, request, 'experiment request');
    let dataset;
    if (req.dataset) {
        dataset = (await putDataset(store, req.dataset)).dataset;
    }
    else {
        const stored = await store.getDataset(req.datasetRef.id, req.datasetRef.version);
        if (!stored)
            throw new errors_1.NotFoundError(`dataset ${req.datasetRef.id} version ${req.datasetRef.version} does not exist (store it with \`evolution dataset put FILE\`)`);
        dataset = stored;
    }
    const problems = (0, core_1.datasetProblems)(dataset, req.submit);
    if (problems.length > 0) {
        throw new errors_1.InputError(`invalid experiment request: dataset ${dataset.id} version ${dataset.version}:\n${problems.map((p) => `  ✖ ${p.message}\n    → at ${p.path.join('.')}`).join('\n')}`);
    }
    try {
        (0, core_1.initSearchState)({ experimentId: 'check', options: req.options, dataset });
    }
    catch (e) {
        throw new errors_1.InputError(`invalid experiment request: ${e.message}`);
    }
    const { dataset: _inline, ...rest } = req;
    return { request: { ...rest, datasetRef: { id: dataset.id, version: dataset.version } }, dataset };
}
/**
 * A submitting experiment whose skill is unmanaged or whose parent is not the active
 * revision is refused before it spends a metric call (the experiment's prepare step
 * checks again, for scheduled runs and other clients).
 */
async function refuseUnsubmittable(store, request) {
    if (!request.submit || !request.skillId || !request.parentRevisionId || request.parentRevisionId === 'active')
        return;
    const scopeKey = (0, core_1.scopeKey)(request.scope);
    const active = await store.readActive(scopeKey, request.skillId);
    const problem = (0, core_1.submissionParentProblem)({ skillId: request.skillId, scopeKey, parentRevisionId: request.parentRevisionId, active: active?.pointer });
    if (problem)
        throw new errors_1.StateError(`experiment refused: ${problem}`);
}
/**
 * Starts one experiment and returns as soon as Temporal accepted it. The experiment id
 * (request.experimentId, else a new one) names the workflow `experiment/{id}`; an id is
 * used once.
 */
async function startExperiment(deps, request, opts = {}) {
    const resolved = await resolveRequest(deps.store, request);
    await refuseUnsubmittable(deps.store, resolved.request);
    const experimentId = resolved.request.experimentId ?? `exp-${(0, node_crypto_1.randomUUID)()}`;
    const workflowId = (0, ids_1.experimentWorkflowId)(experimentId);
    try {
        await deps.client.workflow.start(workflows_1.experimentWorkflow, {
            workflowId,
            taskQueue: deps.config.temporal.taskQueue,
            args: [{ request: { ...resolved.request, experimentId }, iterationsPerRun: opts.iterationsPerRun }],
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
            searchAttributes: { EvolutionKind: ['experiment'], ...(resolved.request.skillId ? { EvolutionSkillId: [resolved.request.skillId] } : {}) },
        });
    }
    catch (e) {
        if (e instanceof client_1.WorkflowExecutionAlreadyStartedError)
            throw new errors_1.StateError(`experiment ${experimentId} already exists (an experiment id is used once)`);
        throw e;
    }
    return { experimentId, workflowId, dataset: resolved.request.datasetRef };
}
/** Waits for the report (following continue-as-new). A workflow that failed (bad input) becomes a StateError with the reason. */
async function waitForExperiment(client, experimentId) {
    try {
        return (await client.workflow.getHandle((0, ids_1.experimentWorkflowId)(experimentId)).result());
    }
    catch (e) {
        if (e instanceof client_1.WorkflowNotFoundError)
            throw new errors_1.NotFoundError(`no experiment ${experimentId}`);
        if (e instanceof client_1.WorkflowFailedError)
            throw new errors_1.StateError(`experiment ${experimentId} failed: ${(0, failure_1.failureMessage)(e)}`);
        throw e;
    }
}
/** Start, then wait: the experiment's report. */
async function runExperiment(deps, request, opts = {}) {
    const started = await startExperiment(deps, request, opts);
    return waitForExperiment(deps.client, started.experimentId);
}
const CLOSED = { CANCELLED: 'cancelled', TERMINATED: 'terminated', TIMED_OUT: 'timed_out', FAILED: 'failed' };
/** Status, progress while running, the report when done (from Temporal, else from result.json in S3). */
async function getExperiment(deps, experimentId) {
    const workflowId = (0, ids_1.experimentWorkflowId)(experimentId);
    const handle = deps.client.workflow.getHandle(workflowId);
    let status;
    try {
        status = (await handle.describe()).status.name;
    }
    catch (e) {
        if (!(e instanceof client_1.WorkflowNotFoundError))
            throw e;
        const report = await (0, records_1.experimentReader)(deps.store).result(experimentId);
        if (!report)
            throw new errors_1.NotFoundError(`no experiment ${experimentId}`);
        return { experimentId, workflowId, status: report.status, report };
    }
    if (status === 'RUNNING' || status === 'CONTINUED_AS_NEW') {
        const progress = await handle.query(workflows_1.experimentProgressQuery).catch(() => undefined);
        return { experimentId, workflowId, status: 'running', ...(progress ? { progress } : {}) };
    }
    if (status === 'COMPLETED') {
        const report = (await handle.result());
        return { experimentId, workflowId, status: report.status, report, ...(report.error ? { error: report.error } : {}) };
    }
    const error = await handle.result().then(() => undefined, (e) => (0, failure_1.failureMessage)(e));
    return { experimentId, workflowId, status: CLOSED[status] ?? 'failed', ...(error ? { error } : {}) };
}
/** The experiment record, its full iteration log and its evaluation batches (S3). */
async function readExperimentRecords(store, experimentId) {
    const reader = (0, records_1.experimentReader)(store);
    const [experiment, log, evaluations, reflections] = await Promise.all([reader.experiment(experimentId), reader.iterationLog(experimentId), reader.evaluations(experimentId), reader.reflections(experimentId)]);
    return { experiment, log, evaluations, reflections };
}
//# sourceMappingURL=optimization.js.map