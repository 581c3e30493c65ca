import type { Duration } from '@temporalio/common';
import { condition, sleep } from '@temporalio/workflow';

/**
 * A timer the workflow never cancels: started once, read as a flag, left to ring (or dropped
 * with the run). `condition(fn, timeout)` cancels its timer whenever `fn` comes true first;
 * in a workflow woken by every publication or session of a scope (its index, its usage) that
 * is a TimerStarted and a TimerCanceled event per wake-up. And on the time-skipping test
 * server a cancel that crosses the timer firing strands the run: the server refuses the
 * completion ("invalid history builder state for action") and never sends the task again.
 */
export interface Alarm {
  readonly rang: boolean;
}

export function startAlarm(after: Duration): Alarm {
  const alarm = { rang: false };
  sleep(typeof after === 'number' ? Math.max(1, after) : after).then(
    () => void (alarm.rang = true),
    () => undefined, // cancelled with the workflow: nothing waits on it alone
  );
  return alarm;
}

/**
 * Waits until `fn()` or the workflow time `dueAt`, on alarms: a pending alarm due no later than
 * `dueAt` is kept (when it rings before `dueAt`, because the deadline moved on, one more waits for
 * the rest), one due later is left to ring and a new one started. So a deadline that moves on at
 * each wake-up (an idle hour counted from the last records) costs one timer per ring, and one
 * that moves earlier (a reconcile brought forward) is kept to. The caller decides, once it
 * returns, whether `fn()` woke it or the deadline passed.
 */
export function deadlineWaiter(): (fn: () => boolean, dueAt: number) => Promise<void> {
  let pending: { at: number; alarm: Alarm } | undefined;
  return async (fn, dueAt) => {
    if (pending?.alarm.rang || (pending && pending.at > dueAt)) pending = undefined;
    pending ??= { at: dueAt, alarm: startAlarm(dueAt - new Date().getTime()) };
    const { alarm } = pending;
    await condition(() => fn() || alarm.rang);
  };
}

/** Like `condition(fn, timeout)`, on an alarm: true when `fn` came true, false when the time ran out first. */
export async function conditionOrAlarm(fn: () => boolean, timeout: Duration): Promise<boolean> {
  if (fn()) return true;
  const alarm = startAlarm(timeout);
  await condition(() => fn() || alarm.rang);
  return fn();
}
