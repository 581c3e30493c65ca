/**
 * How a process of ours ends: after everything it wrote to stdout and stderr has left it.
 * Into a pipe Node writes asynchronously, so `process.exit()` right after a large answer
 * drops whatever the reader has not taken yet (a `--json` answer cut at 64 KB, exit 0).
 */

/** The status a shell reports for a writer ended by SIGPIPE (128 + 13); Node ignores the signal, so we say it. */
export const BROKEN_PIPE_STATUS = 141;

/**
 * A reader that went away (`| head -c 10`) ends the process at once, quietly, with
 * BROKEN_PIPE_STATUS, as SIGPIPE ends other command-line tools; any other write error on
 * stdout or stderr is said in one line (on stderr, while it still works) with status 1.
 * Call once, before writing anything.
 */
export function endQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', (error: NodeJS.ErrnoException) => endOnWriteError(stream, error));
}

function endOnWriteError(stream: NodeJS.WriteStream, error: NodeJS.ErrnoException): never {
  if (error.code === 'EPIPE') process.exit(BROKEN_PIPE_STATUS);
  if (stream === process.stdout) process.stderr.write(`cannot write the output: ${error.message}\n`);
  process.exit(1);
}

/** Resolves once `stream` has handed everything written so far to the operating system. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  // Writes complete in order: the callback of an empty write runs after every earlier one.
  // A failed write calls back before its 'error' event: end here, not with the caller's code.
  return new Promise((resolve) => stream.write('', (error) => (error ? endOnWriteError(stream, error) : resolve())));
}

/**
 * Exits with `code` once stdout and stderr are flushed (a write error there ends it as
 * endQuietlyOnBrokenPipe says). Exits even when handles (sockets, timers) are
 * still open, which merely setting process.exitCode would wait for.
 */
export async function exitWhenFlushed(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/**
 * A process's entry point: runs `main`, then exits with its status (0 when it returns none)
 * once the output is flushed; a throw is said on stderr by `describeFailure`, with status 1.
 */
export function runToExit(main: () => Promise<number | void>, describeFailure: (error: unknown) => string): void {
  endQuietlyOnBrokenPipe();
  main().then(
    (code) => exitWhenFlushed(code ?? 0),
    (error: unknown) => {
      process.stderr.write(`${describeFailure(error)}\n`);
      return exitWhenFlushed(1);
    },
  );
}
