import { CancellationScope, isCancellation, sleep } from '@temporalio/workflow';

export type Deadlined<T> = { timedOut: false; value: T } | { timedOut: true };

/** How long cancelled work gets to wind down after the deadline before it is left behind. */
export const CANCEL_GRACE_MS = 5_000;

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
export async function withDeadline<T>(deadlineMs: number | undefined, work: () => Promise<T>): Promise<Deadlined<T>> {
  if (deadlineMs === undefined) return { timedOut: false, value: await work() };
  const workScope = new CancellationScope();
  const timerScope = new CancellationScope();
  let fired = false;
  const deadline = timerScope.run(async () => {
    await sleep(Math.max(1, deadlineMs - new Date().getTime()));
    fired = true;
    workScope.cancel();
    await sleep(CANCEL_GRACE_MS);
    return GRACE_EXPIRED;
  });
  deadline.catch(() => undefined); // cancelled below when work finishes first
  const running = workScope.run(work);
  running.catch(() => undefined); // may be left behind when its cancellation never completes
  try {
    const first = await Promise.race([running, deadline]);
    if (first === GRACE_EXPIRED) return { timedOut: true };
    return { timedOut: false, value: first as T };
  } catch (e) {
    if (fired && isCancellation(e)) return { timedOut: true };
    throw e;
  } finally {
    timerScope.cancel();
  }
}
