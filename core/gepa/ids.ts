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
  mergeSubsample: (iteration: number) => `e-i${pad(iteration)}-m1-subsample`,
  mergeValidation: (iteration: number) => `e-i${pad(iteration)}-m2-validation`,
  holdoutSeed: 'e-holdout-seed',
  holdoutWinner: 'e-holdout-winner',
  /** Post-search records of a resumed experiment carry its resume number (segment > 0). */
  holdoutSeedOf: (segment = 0) => (segment > 0 ? `e-holdout-seed-r${segment}` : 'e-holdout-seed'),
  holdoutWinnerOf: (segment = 0) => (segment > 0 ? `e-holdout-winner-r${segment}` : 'e-holdout-winner'),
  /** multi_seed selection: finalist number `finalist` (0-based, pool order) under extra seed `seed` (1-based). */
  selection: (finalist: number, seed: number, segment = 0) => `e-select-f${finalist}-s${seed}${segment > 0 ? `-r${segment}` : ''}`,
  resume: (segment: number) => `resume-s${segment}`,
  result: (segment: number) => `result-s${segment}`,
};

/** The revision a submission creates: a function of the experiment, so retries never mint a second one. */
export function submissionJobId(experimentId: string): string {
  return `gepa/${experimentId}`;
}
