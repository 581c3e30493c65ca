import { describe, expect, it } from 'vitest';
import { coalescePerKey } from '../../activities/coalesce-per-key';

/** A `send` whose calls stay in flight until the test settles them. */
function controlledSend() {
  const calls: { key: string; items: number[]; settle: (error?: Error) => void }[] = [];
  const send = (key: string, items: number[]) => new Promise<void>((resolve, reject) => calls.push({ key, items, settle: (error) => (error ? reject(error) : resolve()) }));
  return { calls, send };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('coalescePerKey', () => {
  it('keeps one call in flight per key; what arrives meanwhile goes together in the next call', async () => {
    const { calls, send } = controlledSend();
    const push = coalescePerKey(send, 100);
    const done = [1, 2, 3, 4].map((n) => push('a', n));
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1]]);
    calls[0]!.settle();
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3, 4]]);
    const later = push('a', 5); // while [2, 3, 4] is in flight
    calls[1]!.settle();
    await Promise.all(done);
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3, 4], [5]]);
    calls[2]!.settle();
    await later;
  });

  it('keys do not wait for each other', async () => {
    const { calls, send } = controlledSend();
    const push = coalescePerKey(send, 100);
    void push('a', 1);
    void push('b', 2);
    await tick();
    expect(calls.map((c) => [c.key, c.items])).toEqual([
      ['a', [1]],
      ['b', [2]],
    ]);
  });

  it('sends at most maxPerCall items per call', async () => {
    const { calls, send } = controlledSend();
    const push = coalescePerKey(send, 2);
    const done = [1, 2, 3, 4, 5, 6].map((n) => push('a', n));
    for (let i = 0; i < 4; i++) {
      await tick();
      calls[i]!.settle();
    }
    await Promise.all(done);
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3], [4, 5], [6]]);
  });

  it('a failed call fails only its own items; the next call still goes out, and a key is free again once its queue is empty', async () => {
    const { calls, send } = controlledSend();
    const push = coalescePerKey(send, 100);
    const first = push('a', 1);
    const second = push('a', 2);
    await tick();
    calls[0]!.settle(new Error('server unavailable'));
    await expect(first).rejects.toThrow('server unavailable');
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    calls[1]!.settle();
    await expect(second).resolves.toBeUndefined();
    await tick();
    const third = push('a', 3);
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1], [2], [3]]);
    calls[2]!.settle();
    await third;
  });

  it('a send that throws at once fails its items instead of leaving them waiting', async () => {
    const push = coalescePerKey<number>(() => {
      throw new RangeError('not a scope key');
    }, 100);
    await expect(push('x', 1)).rejects.toThrow(RangeError);
    await expect(push('x', 2)).rejects.toThrow(RangeError);
  });
});
