import { ApplicationFailure } from '@temporalio/activity';
import { NON_RETRYABLE } from '../core/failure-types';
import { isNonRetryableStorageError } from '../storage';

/** Runs an activity body, turning storage errors that no retry can fix into non-retryable failures. */
export async function withStoreErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isNonRetryableStorageError(e)) throw ApplicationFailure.nonRetryable((e as Error).message, NON_RETRYABLE.store);
    throw e;
  }
}
