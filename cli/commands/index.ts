import type { Command } from '../command';
import { approvalCommands } from './approvals';
import { completionCommands } from './completion';
import { consoleCommands } from './console';
import { evaluateCommands } from './evaluate';
import { infraCommands } from './infra';
import { learningCommands } from './learning';
import { migrateCommands } from './migrate';
import { operationsCommands } from './operations';
import { optimizeCommands } from './optimize';
import { payloadCommands } from './payloads';
import { skillCommands } from './skills';
import { usageCommands } from './usage';
import { curationCommands } from './curation';
import { rolloutCommands } from './rollout';

/** Every CLI command by name; each group lives in its own file beside this one. */
export const COMMANDS: Record<string, Command> = {
  ...learningCommands,
  ...approvalCommands,
  ...skillCommands,
  ...usageCommands,
  ...curationCommands,
  ...rolloutCommands,
  ...optimizeCommands,
  ...infraCommands,
  ...payloadCommands,
  ...consoleCommands,
  ...operationsCommands,
  ...migrateCommands,
  ...evaluateCommands,
  ...completionCommands(() => COMMANDS),
};
