import type { Command } from '../command';
import { infraCommands } from './infra';

/** Every CLI command by name; each group lives in its own file beside this one. */
export const COMMANDS: Record<string, Command> = {
  ...infraCommands,
};
