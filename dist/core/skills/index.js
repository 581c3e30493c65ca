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
// Pure skill-level helpers: ids and storage segments, SKILL.md, bounding, redaction, hashing.
__exportStar(require("./hash"), exports);
__exportStar(require("./scope-key"), exports);
__exportStar(require("./bounding"), exports);
__exportStar(require("./redaction"), exports);
__exportStar(require("./skill-markdown"), exports);
//# sourceMappingURL=index.js.map