"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NON_RETRYABLE = void 0;
exports.withStoreErrors = withStoreErrors;
const activity_1 = require("@temporalio/activity");
const storage_1 = require("./storage");
/** Failure types the workflows list as non-retryable. */
exports.NON_RETRYABLE = {
    store: 'NonRetryableStoreError',
    scope: 'ScopeError',
    segment: 'InvalidSegmentError',
    rollback: 'RollbackError',
};
/** Runs an activity body, turning storage errors that no retry can fix into non-retryable failures. */
async function withStoreErrors(fn) {
    try {
        return await fn();
    }
    catch (e) {
        if ((0, storage_1.isNonRetryableStorageError)(e))
            throw activity_1.ApplicationFailure.nonRetryable(e.message, exports.NON_RETRYABLE.store);
        throw e;
    }
}
//# sourceMappingURL=errors.js.map