import type { Client } from '@temporalio/client';

/**
 * One `send` in flight per key: items that arrive for a key while its call is in flight
 * wait and go together in the next call (at most `maxPerCall`). Each caller's promise
 * settles with the call that carried its item; a failed call fails only its own items,
 * and the key's queue goes on.
 */
export function coalescePerKey<T>(send: (key: string, items: T[]) => Promise<unknown>, maxPerCall: number): (key: string, item: T) => Promise<void> {
  interface Waiting {
    item: T;
    sent: () => void;
    failed: (error: unknown) => void;
  }
  /** Keys with a call in flight, and the items waiting for the next one. */
  const queued = new Map<string, Waiting[]>();

  async function drain(key: string, first: Waiting[]): Promise<void> {
    for (let batch = first; batch.length > 0; batch = queued.get(key)!.splice(0, maxPerCall)) {
      try {
        await send(
          key,
          batch.map((w) => w.item),
        );
        for (const w of batch) w.sent();
      } catch (error) {
        for (const w of batch) w.failed(error);
      }
    }
    queued.delete(key);
  }

  return (key, item) =>
    new Promise<void>((sent, failed) => {
      const waiting = queued.get(key);
      if (waiting) {
        waiting.push({ item, sent, failed });
        return;
      }
      queued.set(key, []);
      void drain(key, [{ item, sent, failed }]);
    });
}

/** At most this many items travel in one signal (each is a few hundred bytes). */
export const MAX_ITEMS_PER_SIGNAL = 100;
/** A signal that has not reached the server by then fails its items (their activities retry), so one stuck call cannot hold a key's queue. */
const SIGNAL_DEADLINE_MS = 30_000;

/**
 * Signal-with-start of one workflow per key (a scope's index or usage workflow) through
 * `client`, on `taskQueue`: one signal per key in flight from this process, the items that
 * arrive meanwhile go together in the next one, as the signal's arguments. The server takes
 * a workflow's signals one at a time, and each costs the workflow a history event: with a
 * signal per item, a busy scope's items queue there (seconds each with 100 jobs at once).
 * Each call resolves once its item is on the server.
 */
export function coalescedSignalWithStart<T>(
  client: Client,
  target: { taskQueue: string; workflowType: string; signal: string; workflowId: (key: string) => string; args: (key: string) => unknown[] },
  maxPerSignal = MAX_ITEMS_PER_SIGNAL,
): (key: string, item: T) => Promise<void> {
  return coalescePerKey<T>(
    (key, items) =>
      client.withDeadline(Date.now() + SIGNAL_DEADLINE_MS, () =>
        client.workflow.signalWithStart(target.workflowType, {
          workflowId: target.workflowId(key),
          taskQueue: target.taskQueue,
          args: target.args(key),
          signal: target.signal,
          signalArgs: items,
        }),
      ),
    maxPerSignal,
  );
}
