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
// Pure, deterministic domain logic: safe to import from workflow code (no I/O, no Node APIs).
__exportStar(require("./schemas"), exports);
__exportStar(require("./duration"), exports);
__exportStar(require("./config"), exports);
__exportStar(require("./skills"), exports);
__exportStar(require("./learning"), exports);
__exportStar(require("./gepa"), exports);
__exportStar(require("./revision-lifecycle"), exports);
__exportStar(require("./publication"), exports);
//# sourceMappingURL=index.js.map