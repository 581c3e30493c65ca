import { ApplicationFailure } from '@temporalio/activity';
import { NON_RETRYABLE } from '../../core/failure-types';

export function invalidRequest(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, NON_RETRYABLE.experimentRequest);
}
