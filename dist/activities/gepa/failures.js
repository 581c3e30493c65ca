"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.GEPA_NON_RETRYABLE = void 0;
exports.invalidRequest = invalidRequest;
const activity_1 = require("@temporalio/activity");
/** Failure types of the GEPA activities that no retry can fix (the workflow lists them). */
exports.GEPA_NON_RETRYABLE = {
    request: 'InvalidExperimentRequest',
    dataset: 'DatasetNotFound',
    record: 'ExperimentRecordConflict',
};
function invalidRequest(message) {
    return activity_1.ApplicationFailure.nonRetryable(message, exports.GEPA_NON_RETRYABLE.request);
}
//# sourceMappingURL=failures.js.map