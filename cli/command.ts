import type { EvolutionConfig } from '../core';
import type { CommandSpec, ParsedArgs } from '../runtime/command-line';

export interface CommandContext {
  args: ParsedArgs;
  json: boolean;
  /** Loaded lazily: `infra` commands run before any configuration exists. */
  config(): EvolutionConfig;
  /** Prints `value` as JSON with --json, else the readable `text`. */
  out(value: unknown, text: string | (() => string)): void;
}

/**
 * One `evolution` command: what it takes (arguments, options: runtime/command-line.ts
 * parses, helps, suggests and completes from this alone) and what it does. A flag not
 * declared in `options` is a usage error, so declare every flag `run` reads.
 */
export interface Command extends CommandSpec {
  run(ctx: CommandContext): Promise<number | void>;
}
