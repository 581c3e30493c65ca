import { Context } from '@temporalio/activity';

/**
 * Heartbeats while a long call (an LLM request) is in flight, so a worker that dies
 * mid-call is noticed after the heartbeat timeout instead of the whole start-to-close
 * timeout, and cancellation reaches the call through the activity's abort signal.
 * The first heartbeat comes after `everyMs`, not at the start: each one is a request the
 * server persists, and most calls (a publication, an index burst) end well before. A local
 * activity does not heartbeat (its workflow task is what the server watches).
 */
export async function whileHeartbeating<T>(fn: (signal: AbortSignal) => Promise<T>, everyMs = 5_000): Promise<T> {
  const ctx = Context.current();
  const timer = ctx.info.isLocal ? undefined : setInterval(() => ctx.heartbeat(), everyMs);
  try {
    return await fn(ctx.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}
