/** Deterministic names of an experiment's records and submission (pure; shared with client and activities). Workflow ids: core/workflow-ids.ts. */

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

/** The revision a submission creates: a function of the experiment, so retries never mint a second one. */
export function submissionJobId(experimentId: string): string {
  return `gepa/${experimentId}`;
}
