/**
 * Typed storage errors. `retryable` says whether re-running the whole activity from
 * scratch could succeed; activities turn `retryable: false` into
 * `ApplicationFailure.nonRetryable` (this module stays free of Temporal).
 * Transport errors (network, 5xx) are not wrapped: they stay retryable.
 */
export abstract class StorageError extends Error {
  abstract readonly retryable: boolean;
}

/** The condition a conditional PUT carried. */
export type WriteCondition = { ifNoneMatch: '*' } | { ifMatch: string };

export function describeCondition(condition: WriteCondition): string {
  return 'ifMatch' in condition ? `If-Match ${condition.ifMatch}` : 'If-None-Match *';
}

/**
 * A conditional write lost (HTTP 412, or 409 ConditionalRequestConflict). Never a silent
 * overwrite. A lost If-Match race is retryable (a fresh read may succeed); an existing
 * object under a create-only key is not (it will still exist next time), unless the
 * thrower knows better.
 */
export class PreconditionConflictError extends StorageError {
  override name = 'PreconditionConflictError';
  readonly retryable: boolean;

  constructor(
    readonly key: string,
    readonly condition: WriteCondition,
    options: { message?: string; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(options.message ?? `conditional write to ${key} failed (${describeCondition(condition)}): the object changed or already exists`, {
      cause: options.cause,
    });
    this.retryable = options.retryable ?? 'ifMatch' in condition;
  }
}

export class NotFoundError extends StorageError {
  override name = 'NotFoundError';
  readonly retryable = false;

  constructor(
    readonly key: string,
    what = 'object',
  ) {
    super(`${what} not found at ${key}`);
  }
}

/** Stored bytes that do not parse or do not match their schema: retrying reads the same bytes. */
export class CorruptObjectError extends StorageError {
  override name = 'CorruptObjectError';
  readonly retryable = false;

  constructor(
    readonly key: string,
    detail: string,
  ) {
    super(`corrupt object at ${key}: ${detail}`);
  }
}

/** A claim-checked payload whose bytes do not hash to its reference. */
export class PayloadIntegrityError extends StorageError {
  override name = 'PayloadIntegrityError';
  readonly retryable = false;

  constructor(
    readonly key: string,
    detail: string,
  ) {
    super(`payload at ${key} failed its integrity check: ${detail}`);
  }
}

/** A status move the lifecycle forbids (see core/revision-lifecycle). */
export class IllegalTransitionError extends StorageError {
  override name = 'IllegalTransitionError';
  readonly retryable = false;
}

/** A caller passed something that can never be stored (bad key segment, mismatched ids). */
export class InvalidStorageRequestError extends StorageError {
  override name = 'InvalidStorageRequestError';
  readonly retryable = false;
}

/** True for errors an activity should fail without retrying. */
export function isNonRetryableStorageError(error: unknown): error is StorageError {
  return error instanceof StorageError && !error.retryable;
}
