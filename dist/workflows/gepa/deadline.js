"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withDeadline = withDeadline;
const workflow_1 = require("@temporalio/workflow");
/**
 * Runs `work` in its own cancellation scope, raced against a durable workflow timer
 * ending at `deadlineMs` (workflow time, so the limit survives continue-as-new and
 * worker restarts). When the timer wins, the scope is cancelled: in-flight evaluations
 * and reflections are cancelled and `work` ends with a cancellation, reported here as
 * `timedOut`. Work that finished first wins, even if the timer fired meanwhile.
 */
async function withDeadline(deadlineMs, work) {
    if (deadlineMs === undefined)
        return { timedOut: false, value: await work() };
    const workScope = new workflow_1.CancellationScope();
    const timerScope = new workflow_1.CancellationScope();
    let fired = false;
    void timerScope
        .run(() => (0, workflow_1.sleep)(Math.max(1, deadlineMs - Date.now())))
        .then(() => {
        fired = true;
        workScope.cancel();
    }, () => undefined);
    try {
        return { timedOut: false, value: await workScope.run(work) };
    }
    catch (e) {
        if (fired && (0, workflow_1.isCancellation)(e))
            return { timedOut: true };
        throw e;
    }
    finally {
        timerScope.cancel();
    }
}
//# sourceMappingURL=deadline.js.map