"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ForbiddenError = void 0;
/** The user is known and may see the thing, but their role does not allow the action (HTTP 403). */
class ForbiddenError extends Error {
    name = 'ForbiddenError';
}
exports.ForbiddenError = ForbiddenError;
//# sourceMappingURL=errors.js.map