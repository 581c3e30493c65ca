"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.segmentIdFor = exports.learningJobWorkflowId = exports.sessionWorkflowId = exports.approvalWorkflowId = void 0;
// Governance composition: from reviewer decisions (or GEPA winners) to gated revisions.
__exportStar(require("./types"), exports);
__exportStar(require("./build-revision"), exports);
__exportStar(require("./plan"), exports);
var revision_id_1 = require("../learning/revision-id");
Object.defineProperty(exports, "approvalWorkflowId", { enumerable: true, get: function () { return revision_id_1.approvalWorkflowId; } });
Object.defineProperty(exports, "sessionWorkflowId", { enumerable: true, get: function () { return revision_id_1.sessionWorkflowId; } });
var ids_1 = require("./ids");
Object.defineProperty(exports, "learningJobWorkflowId", { enumerable: true, get: function () { return ids_1.learningJobWorkflowId; } });
Object.defineProperty(exports, "segmentIdFor", { enumerable: true, get: function () { return ids_1.segmentIdFor; } });
__exportStar(require("./job-outcome-schema"), exports);
__exportStar(require("./quarantine"), exports);
//# sourceMappingURL=index.js.map