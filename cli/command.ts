import type { EvolutionConfig } from '../core';
import type { ParsedArgs } from './args';

export interface CommandContext {
  args: ParsedArgs;
  json: boolean;
  /** Loaded lazily: `infra` commands run before any configuration exists. */
  config(): EvolutionConfig;
  /** Prints `value` as JSON with --json, else the readable `text`. */
  out(value: unknown, text: string | (() => string)): void;
}

export interface Command {
  usage: string;
  summary: string;
  run(ctx: CommandContext): Promise<number | void>;
}
