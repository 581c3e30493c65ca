import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { whileHeartbeating } from '../../activities/heartbeat';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('whileHeartbeating', () => {
  it('sends nothing for a call that ends within the interval: a heartbeat is a server write, and a short activity needs none', async () => {
    const env = new MockActivityEnvironment();
    let beats = 0;
    env.on('heartbeat', () => beats++);
    expect(await env.run(() => whileHeartbeating(async () => 'done', 50))).toBe('done');
    expect(beats).toBe(0);
  });

  it('heartbeats every interval while a long call runs, and stops when it ends', async () => {
    const env = new MockActivityEnvironment();
    let beats = 0;
    env.on('heartbeat', () => beats++);
    await env.run(() => whileHeartbeating(() => sleep(130), 30));
    expect(beats).toBeGreaterThanOrEqual(3);
    const after = beats;
    await sleep(80);
    expect(beats).toBe(after);
  });

  it('hands the activity cancellation signal to the call', async () => {
    const env = new MockActivityEnvironment();
    const run = env.run(() => whileHeartbeating((signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))), 30));
    await sleep(10);
    env.cancel();
    await expect(run).rejects.toThrow();
  });
});
