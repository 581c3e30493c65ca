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
