"use strict";
/** Deterministic names of an experiment's workflows and records (pure; shared with client and activities). */
Object.defineProperty(exports, "__esModule", { value: true });
exports.recordIds = void 0;
exports.experimentWorkflowId = experimentWorkflowId;
exports.experimentIdFromWorkflowId = experimentIdFromWorkflowId;
exports.scheduledExperimentWorkflowId = scheduledExperimentWorkflowId;
exports.evaluationWorkflowId = evaluationWorkflowId;
exports.submissionJobId = submissionJobId;
const EXPERIMENT_PREFIX = 'experiment/';
const EXPERIMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
function experimentWorkflowId(experimentId) {
    return `${EXPERIMENT_PREFIX}${experimentId}`;
}
/**
 * The experiment id of a workflow started without one (a scheduled run, whose id the
 * schedule suffixes with a timestamp): the workflow id minus its prefix, with anything
 * an experiment id cannot hold replaced by `-`.
 */
function experimentIdFromWorkflowId(workflowId) {
    const tail = workflowId.startsWith(EXPERIMENT_PREFIX) ? workflowId.slice(EXPERIMENT_PREFIX.length) : workflowId;
    let id = tail.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
    if (id.length > 128)
        id = id.slice(id.length - 128).replace(/^[^A-Za-z0-9]+/, '');
    return EXPERIMENT_ID.test(id) ? id : `exp-${id.length}`;
}
/** The workflow id prefix of a schedule's runs (Temporal appends the scheduled time). */
function scheduledExperimentWorkflowId(scheduleId) {
    return `${EXPERIMENT_PREFIX}sched-${scheduleId}`;
}
function pad(iteration) {
    return String(iteration).padStart(4, '0');
}
/** Record ids sort by iteration, then phase. */
exports.recordIds = {
    seedValidation: 'e-seed-validation',
    parentMinibatch: (iteration) => `e-i${pad(iteration)}-1-parent`,
    childMinibatch: (iteration) => `e-i${pad(iteration)}-2-child`,
    childValidation: (iteration) => `e-i${pad(iteration)}-3-validation`,
    reflection: (iteration) => `r-i${pad(iteration)}`,
    iterationLog: (iteration) => `log-i${pad(iteration)}`,
    holdoutSeed: 'e-holdout-seed',
    holdoutWinner: 'e-holdout-winner',
};
/** A child evaluation workflow's id: unique per experiment and record, stable across replays. */
function evaluationWorkflowId(experimentWorkflowId, recordId) {
    return `${experimentWorkflowId}/eval/${recordId}`;
}
/** The revision a submission creates: a function of the experiment, so retries never mint a second one. */
function submissionJobId(experimentId) {
    return `gepa/${experimentId}`;
}
//# sourceMappingURL=ids.js.map