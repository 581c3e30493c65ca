"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SKIPPED_FOR_DELETE = void 0;
exports.SKIPPED_FOR_DELETE = 'skipped: delete revisions carry no new body';
//# sourceMappingURL=types.js.map