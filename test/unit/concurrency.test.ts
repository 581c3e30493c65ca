import { describe, expect, it } from 'vitest';
import { chunk, mapLimit } from '../../core/concurrency';

describe('mapLimit', () => {
  it('keeps input order and never has more than `limit` calls in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const results = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (delay, i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, delay));
      inFlight--;
      return `${i}:${delay}`;
    });
    expect(results).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0']);
    expect(peak).toBe(2);
  });

  it('runs one at a time when the limit is below one, and nothing for no items', async () => {
    const order: number[] = [];
    expect(await mapLimit([1, 2, 3], 0, async (n) => (order.push(n), n * 2))).toEqual([2, 4, 6]);
    expect(order).toEqual([1, 2, 3]);
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });

  it('rejects with the first failure', async () => {
    await expect(mapLimit([1, 2, 3], 2, async (n) => (n === 2 ? Promise.reject(new Error('boom 2')) : n))).rejects.toThrow('boom 2');
  });
});

describe('chunk', () => {
  it('splits into runs of `size`, the last one shorter', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 3)).toEqual([]);
  });
});
