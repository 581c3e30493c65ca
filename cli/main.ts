import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvolutionConfig } from '../core';
import { parseCommandLine, processIo, usageLine, UsageError, type CommandLineIo } from '../runtime/command-line';
import type { Command, CommandContext } from './command';
import { COMMANDS } from './commands';
import { REPO_ROOT } from '../infra/paths';
import { endQuietlyOnBrokenPipe, exitWhenFlushed } from '../runtime/exit';

const SUMMARY =
  'Skill evolution on Temporal: agents learn skills from their sessions under governance, and GEPA experiments optimize them offline. Every command takes --json; `evolution COMMAND --help` says what it takes.';

/** The package's version (package.json at the checkout's root, for the sources and for dist/ alike). */
function version(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Runs one CLI invocation and returns the exit code (non-zero on any error). */
export async function main(argv: string[], io: CommandLineIo = processIo()): Promise<number> {
  const line = parseCommandLine('evolution', COMMANDS, argv, io, { summary: SUMMARY, version: version() });
  if ('exit' in line) return line.exit;
  const name = line.run;
  const args = line.args;
  const command: Command = COMMANDS[name]!;
  const json = args.flags.get('json') === true;
  // Loaded here, not at the top: `evolution help` needs none of it (start-up time).
  const [{ loadConfig }, { infraEnv }] = await Promise.all([import('../runtime/config'), import('../infra/env')]);
  let config: EvolutionConfig | undefined;
  const ctx: CommandContext = {
    args,
    json,
    // Falls back to the local services of `evolution infra up` for what the environment leaves unset.
    config: () => (config ??= loadConfig(process.env, () => infraEnv())),
    out: (value, text) => console.log(json ? JSON.stringify(value, null, 2) : typeof text === 'function' ? text() : text),
  };
  // Long-running commands (worker, evaluator-worker) set up their own tracing.
  const tracing =
    name === 'worker' || name === 'evaluator-worker' ? undefined : await (await import('../runtime/tracing/from-env')).startTracingFromEnv(process.env, 'evolution-cli');
  try {
    return (await command.run(ctx)) ?? 0;
  } catch (e) {
    const { InputError, NotFoundError, ServiceUnavailableError, StateError } = await import('../core/errors');
    const { ConfigError } = await import('../core/config');
    const { explainUnreachable } = await import('../runtime/reachability');
    const { TemporalConnectionError } = await import('../runtime/connection');
    // A raw network error from an SDK names no service: say which one, where, and what to do.
    const err = (config && explainUnreachable(e, config)) || (e as Error);
    const known =
      err instanceof UsageError ||
      err instanceof TemporalConnectionError ||
      err instanceof InputError ||
      err instanceof NotFoundError ||
      err instanceof StateError ||
      err instanceof ConfigError ||
      err instanceof ServiceUnavailableError;
    if (json) console.error(JSON.stringify({ error: err.name, message: err.message }));
    else
      console.error(
        `evolution ${name}: ${known ? err.message : (err.stack ?? err.message)}${err instanceof UsageError ? `\nusage: ${usageLine('evolution', name, command)}` : ''}`,
      );
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await tracing?.shutdown();
  }
}

/**
 * The process around main(): a closed pipe ends it quietly, and it exits once its answer has
 * reached stdout whole (bin/evolution.js and `tsx cli/main.ts` both run this).
 */
export async function runCli(argv: string[]): Promise<never> {
  endQuietlyOnBrokenPipe();
  let code: number;
  try {
    code = await main(argv);
  } catch (e) {
    process.stderr.write(`evolution: ${(e as Error).stack ?? String(e)}\n`);
    code = 1;
  }
  return exitWhenFlushed(code);
}

if (require.main === module) void runCli(process.argv.slice(2));
