import { CancellationScope, isCancellation, sleep } from '@temporalio/workflow';

export type Deadlined<T> = { timedOut: false; value: T } | { timedOut: true };

/**
 * Runs `work` in its own cancellation scope, raced against a durable workflow timer
 * ending at `deadlineMs` (workflow time, so the limit survives continue-as-new and
 * worker restarts). When the timer wins, the scope is cancelled: in-flight evaluations
 * and reflections are cancelled and `work` ends with a cancellation, reported here as
 * `timedOut`. Work that finished first wins, even if the timer fired meanwhile.
 */
export async function withDeadline<T>(deadlineMs: number | undefined, work: () => Promise<T>): Promise<Deadlined<T>> {
  if (deadlineMs === undefined) return { timedOut: false, value: await work() };
  const workScope = new CancellationScope();
  const timerScope = new CancellationScope();
  let fired = false;
  void timerScope
    .run(() => sleep(Math.max(1, deadlineMs - new Date().getTime())))
    .then(
      () => {
        fired = true;
        workScope.cancel();
      },
      () => undefined, // the timer itself was cancelled: work finished first
    );
  try {
    return { timedOut: false, value: await workScope.run(work) };
  } catch (e) {
    if (fired && isCancellation(e)) return { timedOut: true };
    throw e;
  } finally {
    timerScope.cancel();
  }
}
