"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.scopeIndexStateQuery = exports.reconcileIndexSignal = exports.indexChangeSignal = exports.scopeIndexWorkflow = exports.experimentProgressQuery = exports.rollbackWorkflow = exports.approvalStatusQuery = exports.decideUpdate = exports.decideSignal = exports.approvalWorkflow = exports.learningJobWorkflow = exports.sessionStateQuery = exports.submitSegmentSignal = exports.sessionWorkflow = void 0;
exports.experimentWorkflow = experimentWorkflow;
exports.evaluationBatchWorkflow = evaluationBatchWorkflow;
var session_1 = require("./session");
Object.defineProperty(exports, "sessionWorkflow", { enumerable: true, get: function () { return session_1.sessionWorkflow; } });
Object.defineProperty(exports, "submitSegmentSignal", { enumerable: true, get: function () { return session_1.submitSegmentSignal; } });
Object.defineProperty(exports, "sessionStateQuery", { enumerable: true, get: function () { return session_1.sessionStateQuery; } });
var learning_job_1 = require("./learning-job");
Object.defineProperty(exports, "learningJobWorkflow", { enumerable: true, get: function () { return learning_job_1.learningJobWorkflow; } });
var approval_1 = require("./approval");
Object.defineProperty(exports, "approvalWorkflow", { enumerable: true, get: function () { return approval_1.approvalWorkflow; } });
Object.defineProperty(exports, "decideSignal", { enumerable: true, get: function () { return approval_1.decideSignal; } });
Object.defineProperty(exports, "decideUpdate", { enumerable: true, get: function () { return approval_1.decideUpdate; } });
Object.defineProperty(exports, "approvalStatusQuery", { enumerable: true, get: function () { return approval_1.approvalStatusQuery; } });
var rollback_1 = require("./rollback");
Object.defineProperty(exports, "rollbackWorkflow", { enumerable: true, get: function () { return rollback_1.rollbackWorkflow; } });
var progress_query_1 = require("./gepa/progress-query");
Object.defineProperty(exports, "experimentProgressQuery", { enumerable: true, get: function () { return progress_query_1.experimentProgressQuery; } });
// eslint-disable-next-line no-restricted-globals -- a bundled module resolved by webpack at build time: deterministic, no I/O
const experiment = () => require('./experiment');
function experimentWorkflow(...args) {
    return experiment().experimentWorkflow(...args);
}
function evaluationBatchWorkflow(...args) {
    // eslint-disable-next-line no-restricted-globals -- as above
    return require('./gepa/evaluation').evaluationBatchWorkflow(...args);
}
var scope_index_1 = require("./scope-index");
Object.defineProperty(exports, "scopeIndexWorkflow", { enumerable: true, get: function () { return scope_index_1.scopeIndexWorkflow; } });
Object.defineProperty(exports, "indexChangeSignal", { enumerable: true, get: function () { return scope_index_1.indexChangeSignal; } });
Object.defineProperty(exports, "reconcileIndexSignal", { enumerable: true, get: function () { return scope_index_1.reconcileIndexSignal; } });
Object.defineProperty(exports, "scopeIndexStateQuery", { enumerable: true, get: function () { return scope_index_1.scopeIndexStateQuery; } });
//# sourceMappingURL=index.js.map