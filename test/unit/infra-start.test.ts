import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRetryingOneCrash } from '../../infra/manager';
import { ExitedDuringStartupError, waitUntil } from '../../infra/process';
import { logTail } from '../../infra/services';

/** Retrying with nothing to log and no crash log. */
const quietly = (start: () => Promise<unknown>) =>
  startRetryingOneCrash(
    's3',
    start,
    () => {},
    () => '',
  );

describe('starting a local service', () => {
  it('waitUntil says the process died, as its own error, instead of waiting out the timeout', async () => {
    const child = spawn('true');
    await once(child, 'exit');
    await expect(waitUntil('thing', async () => false, 60_000, child.pid)).rejects.toBeInstanceOf(ExitedDuringStartupError);
  });

  it('a crash while starting is retried once, with the crash in the log; a second crash or any other failure is final', async () => {
    const lines: string[] = [];
    let calls = 0;
    const crashOnce = async () => (++calls === 1 ? Promise.reject(new ExitedDuringStartupError('s3 exited during start-up')) : 'up');
    expect(
      await startRetryingOneCrash(
        's3',
        crashOnce,
        (l) => lines.push(l),
        () => 'panic: boom',
      ),
    ).toBe('up');
    expect(calls).toBe(2);
    expect(lines).toEqual(['s3: s3 exited during start-up; starting it once more\n--- log tail ---\npanic: boom']);

    calls = 0;
    const alwaysCrash = async () => (calls++, Promise.reject(new ExitedDuringStartupError(`crash ${calls}`)));
    await expect(quietly(alwaysCrash)).rejects.toThrow('crash 2');
    expect(calls).toBe(2);

    calls = 0;
    const unhealthy = async () => (calls++, Promise.reject(new Error('not healthy within 90 s')));
    await expect(quietly(unhealthy)).rejects.toThrow('not healthy within 90 s');
    expect(calls).toBe(1);
  });

  it('the log tail of a Go crash starts at its panic line, where the reason is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-tail-'));
    const crashed = join(dir, 'crashed.log');
    const goroutines = Array.from({ length: 60 }, (_, i) => `\tframe ${i}`);
    writeFileSync(crashed, ['I1202 started', 'panic: runtime error: invalid memory address', '', 'goroutine 1 [running]:', ...goroutines].join('\n'));
    const tail = logTail(crashed, 5).split('\n');
    expect(tail).toEqual(['panic: runtime error: invalid memory address', '', 'goroutine 1 [running]:', '\tframe 0', '\tframe 1']);

    const plain = join(dir, 'plain.log');
    writeFileSync(plain, ['a', 'b', 'c', 'd'].join('\n'));
    expect(logTail(plain, 2)).toBe('c\nd');
    expect(logTail(join(dir, 'missing.log'))).toBe('');
  });
});
