"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.experimentProgressQuery = void 0;
const workflow_1 = require("@temporalio/workflow");
/** The experiment's progress, answered from memory (no history read). */
exports.experimentProgressQuery = (0, workflow_1.defineQuery)('progress');
//# sourceMappingURL=progress-query.js.map