import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../infra/process';

describe('isAlive', () => {
  it('a running process is alive; one that exited and was never reaped (a zombie) is not', async () => {
    // `true` exits at once and stays a zombie: its parent exec'd into `sleep`, which never waits for it.
    const shell = spawn('sh', ['-c', 'true & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [chunk] = (await once(shell.stdout!, 'data')) as [Buffer];
      const zombie = Number(chunk.toString().trim());
      let signalZeroSaysAlive = true;
      for (let i = 0; i < 50 && isAlive(zombie); i++) await new Promise((r) => setTimeout(r, 20));
      try {
        process.kill(zombie, 0);
      } catch {
        signalZeroSaysAlive = false;
      }
      expect(signalZeroSaysAlive).toBe(true); // what the old check relied on
      expect(isAlive(zombie)).toBe(false);
      expect(isAlive(shell.pid)).toBe(true);
    } finally {
      shell.kill('SIGKILL');
    }
  });
});
