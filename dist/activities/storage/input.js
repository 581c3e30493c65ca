"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseInput = parseInput;
const errors_1 = require("./errors");
/** Validates a caller's value before it is stored; a bad value is a non-retryable error naming `what`. */
function parseInput(schema, value, what) {
    const parsed = schema.safeParse(value);
    if (parsed.success)
        return parsed.data;
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new errors_1.InvalidStorageRequestError(`invalid ${what}: ${issues}`);
}
//# sourceMappingURL=input.js.map