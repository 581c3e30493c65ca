/** Deterministic names of an experiment's workflows and records (pure; shared with client and activities). */

const EXPERIMENT_PREFIX = 'experiment/';
const EXPERIMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function experimentWorkflowId(experimentId: string): string {
  return `${EXPERIMENT_PREFIX}${experimentId}`;
}

/**
 * The experiment id of a workflow started without one (a scheduled run, whose id the
 * schedule suffixes with a timestamp): the workflow id minus its prefix, with anything
 * an experiment id cannot hold replaced by `-`.
 */
export function experimentIdFromWorkflowId(workflowId: string): string {
  const tail = workflowId.startsWith(EXPERIMENT_PREFIX) ? workflowId.slice(EXPERIMENT_PREFIX.length) : workflowId;
  let id = tail.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  if (id.length > 128) id = id.slice(id.length - 128).replace(/^[^A-Za-z0-9]+/, '');
  return EXPERIMENT_ID.test(id) ? id : `exp-${id.length}`;
}

/** The workflow id prefix of a schedule's runs (Temporal appends the scheduled time). */
export function scheduledExperimentWorkflowId(scheduleId: string): string {
  return `${EXPERIMENT_PREFIX}sched-${scheduleId}`;
}

function pad(iteration: number): string {
  return String(iteration).padStart(4, '0');
}

/** Record ids sort by iteration, then phase. */
export const recordIds = {
  seedValidation: 'e-seed-validation',
  parentMinibatch: (iteration: number) => `e-i${pad(iteration)}-1-parent`,
  childMinibatch: (iteration: number) => `e-i${pad(iteration)}-2-child`,
  childValidation: (iteration: number) => `e-i${pad(iteration)}-3-validation`,
  reflection: (iteration: number) => `r-i${pad(iteration)}`,
  iterationLog: (iteration: number) => `log-i${pad(iteration)}`,
  holdoutSeed: 'e-holdout-seed',
  holdoutWinner: 'e-holdout-winner',
};

/** A child evaluation workflow's id: unique per experiment and record, stable across replays. */
export function evaluationWorkflowId(experimentWorkflowId: string, recordId: string): string {
  return `${experimentWorkflowId}/eval/${recordId}`;
}

/** The revision a submission creates: a function of the experiment, so retries never mint a second one. */
export function submissionJobId(experimentId: string): string {
  return `gepa/${experimentId}`;
}
