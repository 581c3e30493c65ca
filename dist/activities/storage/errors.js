"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.InvalidStorageRequestError = exports.IllegalTransitionError = exports.PayloadIntegrityError = exports.CorruptObjectError = exports.NotFoundError = exports.PreconditionConflictError = exports.StorageError = void 0;
exports.describeCondition = describeCondition;
exports.isNonRetryableStorageError = isNonRetryableStorageError;
/**
 * Typed storage errors. `retryable` says whether re-running the whole activity from
 * scratch could succeed; activities turn `retryable: false` into
 * `ApplicationFailure.nonRetryable` (this module stays free of Temporal).
 * Transport errors (network, 5xx) are not wrapped: they stay retryable.
 */
class StorageError extends Error {
}
exports.StorageError = StorageError;
function describeCondition(condition) {
    return 'ifMatch' in condition ? `If-Match ${condition.ifMatch}` : 'If-None-Match *';
}
/**
 * A conditional write lost (HTTP 412, or 409 ConditionalRequestConflict). Never a silent
 * overwrite. A lost If-Match race is retryable (a fresh read may succeed); an existing
 * object under a create-only key is not (it will still exist next time), unless the
 * thrower knows better.
 */
class PreconditionConflictError extends StorageError {
    key;
    condition;
    name = 'PreconditionConflictError';
    retryable;
    constructor(key, condition, options = {}) {
        super(options.message ?? `conditional write to ${key} failed (${describeCondition(condition)}): the object changed or already exists`, {
            cause: options.cause,
        });
        this.key = key;
        this.condition = condition;
        this.retryable = options.retryable ?? 'ifMatch' in condition;
    }
}
exports.PreconditionConflictError = PreconditionConflictError;
class NotFoundError extends StorageError {
    key;
    name = 'NotFoundError';
    retryable = false;
    constructor(key, what = 'object') {
        super(`${what} not found at ${key}`);
        this.key = key;
    }
}
exports.NotFoundError = NotFoundError;
/** Stored bytes that do not parse or do not match their schema: retrying reads the same bytes. */
class CorruptObjectError extends StorageError {
    key;
    name = 'CorruptObjectError';
    retryable = false;
    constructor(key, detail) {
        super(`corrupt object at ${key}: ${detail}`);
        this.key = key;
    }
}
exports.CorruptObjectError = CorruptObjectError;
/** A claim-checked payload whose bytes do not hash to its reference. */
class PayloadIntegrityError extends StorageError {
    key;
    name = 'PayloadIntegrityError';
    retryable = false;
    constructor(key, detail) {
        super(`payload at ${key} failed its integrity check: ${detail}`);
        this.key = key;
    }
}
exports.PayloadIntegrityError = PayloadIntegrityError;
/** A status move the lifecycle forbids (see core/revision-lifecycle). */
class IllegalTransitionError extends StorageError {
    name = 'IllegalTransitionError';
    retryable = false;
}
exports.IllegalTransitionError = IllegalTransitionError;
/** A caller passed something that can never be stored (bad key segment, mismatched ids). */
class InvalidStorageRequestError extends StorageError {
    name = 'InvalidStorageRequestError';
    retryable = false;
}
exports.InvalidStorageRequestError = InvalidStorageRequestError;
/** True for errors an activity should fail without retrying. */
function isNonRetryableStorageError(error) {
    return error instanceof StorageError && !error.retryable;
}
//# sourceMappingURL=errors.js.map