import { Context } from '@temporalio/activity';

/**
 * Heartbeats while a long call (an LLM request) is in flight, so a worker that dies
 * mid-call is noticed after the heartbeat timeout instead of the whole start-to-close
 * timeout, and cancellation reaches the call through the activity's abort signal.
 */
export async function whileHeartbeating<T>(fn: (signal: AbortSignal) => Promise<T>, everyMs = 5_000): Promise<T> {
  const ctx = Context.current();
  ctx.heartbeat();
  const timer = setInterval(() => ctx.heartbeat(), everyMs);
  try {
    return await fn(ctx.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}
