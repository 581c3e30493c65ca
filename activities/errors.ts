import { ApplicationFailure } from '@temporalio/activity';
import { isNonRetryableStorageError } from '../storage';

/** Failure types the workflows list as non-retryable. */
export const NON_RETRYABLE = {
  store: 'NonRetryableStoreError',
  scope: 'ScopeError',
  segment: 'InvalidSegmentError',
  rollback: 'RollbackError',
  import: 'ImportError',
} as const;

/** Runs an activity body, turning storage errors that no retry can fix into non-retryable failures. */
export async function withStoreErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isNonRetryableStorageError(e)) throw ApplicationFailure.nonRetryable((e as Error).message, NON_RETRYABLE.store);
    throw e;
  }
}
