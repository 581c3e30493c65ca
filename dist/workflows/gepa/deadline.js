"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CANCEL_GRACE_MS = void 0;
exports.withDeadline = withDeadline;
const workflow_1 = require("@temporalio/workflow");
/** How long cancelled work gets to wind down after the deadline before it is left behind. */
exports.CANCEL_GRACE_MS = 5_000;
const GRACE_EXPIRED = Symbol('grace expired');
/**
 * Runs `work` in its own cancellation scope, raced against a durable workflow timer
 * ending at `deadlineMs` (workflow time, so the limit survives continue-as-new and
 * worker restarts). When the timer wins, the scope is cancelled: in-flight evaluations
 * and reflections are cancelled and `work` ends with a cancellation, reported here as
 * `timedOut`. Work that does not stop within CANCEL_GRACE_MS (an evaluation batch whose
 * workflow task is stuck, an evaluator that ignores cancellation) is left behind: the
 * caller then finishes, and the server terminates the leftover child workflows (their
 * parent-close policy). Work that finished first wins, even if the timer fired meanwhile.
 */
async function withDeadline(deadlineMs, work) {
    if (deadlineMs === undefined)
        return { timedOut: false, value: await work() };
    const workScope = new workflow_1.CancellationScope();
    const timerScope = new workflow_1.CancellationScope();
    let fired = false;
    const deadline = timerScope.run(async () => {
        await (0, workflow_1.sleep)(Math.max(1, deadlineMs - new Date().getTime()));
        fired = true;
        workScope.cancel();
        await (0, workflow_1.sleep)(exports.CANCEL_GRACE_MS);
        return GRACE_EXPIRED;
    });
    deadline.catch(() => undefined); // cancelled below when work finishes first
    const running = workScope.run(work);
    running.catch(() => undefined); // may be left behind when its cancellation never completes
    try {
        const first = await Promise.race([running, deadline]);
        if (first === GRACE_EXPIRED)
            return { timedOut: true };
        return { timedOut: false, value: first };
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