import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../infra/process';

describe('isAlive', () => {
  it('a running process is alive; one that exited and was never reaped (a zombie) is not', async () => {
    // The background `sleep 0.3` outlives the shell, which exec's into `sleep 10`: that never
    // waits for it, so it stays a zombie. (A child that exits at once, like `true`, was
    // sometimes reaped by the shell before the exec: no zombie at all, in about 1 run of 5.)
    const shell = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 10'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [chunk] = (await once(shell.stdout!, 'data')) as [Buffer];
      const zombie = Number(chunk.toString().trim());
      let signalZeroSaysAlive = true;
      for (let i = 0; i < 100 && isAlive(zombie); i++) await new Promise((r) => setTimeout(r, 50));
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
