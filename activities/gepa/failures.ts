import { ApplicationFailure } from '@temporalio/activity';

/** Failure types of the GEPA activities that no retry can fix (the workflow lists them). */
export const GEPA_NON_RETRYABLE = {
  request: 'InvalidExperimentRequest',
  dataset: 'DatasetNotFound',
  record: 'ExperimentRecordConflict',
} as const;

export function invalidRequest(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, GEPA_NON_RETRYABLE.request);
}
