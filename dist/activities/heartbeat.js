"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.whileHeartbeating = whileHeartbeating;
const activity_1 = require("@temporalio/activity");
/**
 * Heartbeats while a long call (an LLM request) is in flight, so a worker that dies
 * mid-call is noticed after the heartbeat timeout instead of the whole start-to-close
 * timeout, and cancellation reaches the call through the activity's abort signal.
 */
async function whileHeartbeating(fn, everyMs = 5_000) {
    const ctx = activity_1.Context.current();
    ctx.heartbeat();
    const timer = setInterval(() => ctx.heartbeat(), everyMs);
    try {
        return await fn(ctx.cancellationSignal);
    }
    finally {
        clearInterval(timer);
    }
}
//# sourceMappingURL=heartbeat.js.map