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
// Pure online-learning logic: review policy and cursor, reviewer transcript,
// reconciliation, gates and lifecycle status, deterministic ids, SKILL.md diffs.
__exportStar(require("./review-policy"), exports);
__exportStar(require("./transcript"), exports);
__exportStar(require("./review-decision"), exports);
__exportStar(require("./reconcile"), exports);
__exportStar(require("./gates"), exports);
__exportStar(require("./gates/human-policy"), exports);
__exportStar(require("./revision-id"), exports);
__exportStar(require("./diff"), exports);
__exportStar(require("./redact-events"), exports);
//# sourceMappingURL=index.js.map