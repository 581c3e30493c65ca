"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.retryOnConflict = retryOnConflict;
const errors_1 = require("./errors");
/**
 * Runs a read-modify-conditional-write `attempt` again (with jittered backoff) while it
 * loses the race, so it always re-reads before re-writing. After the last attempt the
 * conflict propagates (retryable: Temporal may run the activity again).
 */
async function retryOnConflict(attempt, options = {}) {
    const { attempts = 20, baseDelayMs = 5, maxDelayMs = 250 } = options;
    for (let n = 1;; n++) {
        try {
            return await attempt();
        }
        catch (error) {
            if (!(error instanceof errors_1.PreconditionConflictError) || n >= attempts)
                throw error;
            const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** n);
            await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
        }
    }
}
//# sourceMappingURL=cas-retry.js.map