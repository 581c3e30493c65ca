"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.experimentProgressQuery = exports.rollbackWorkflow = exports.approvalStatusQuery = exports.decideUpdate = exports.decideSignal = exports.approvalWorkflow = exports.learningJobWorkflow = exports.sessionStateQuery = exports.submitSegmentSignal = exports.sessionWorkflow = void 0;
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
const experiment = () => require('./experiment');
function experimentWorkflow(...args) {
    return experiment().experimentWorkflow(...args);
}
function evaluationBatchWorkflow(...args) {
    return require('./gepa/evaluation').evaluationBatchWorkflow(...args);
}
//# sourceMappingURL=index.js.map