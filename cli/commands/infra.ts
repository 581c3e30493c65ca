import type { Command } from '../command';
import { INFRA_COMMAND } from '../../infra/command';

export const infraCommands: Record<string, Command> = {
  infra: {
    ...INFRA_COMMAND,
    run: async (ctx) => (await import('../../infra/cli')).infraCommand(ctx.args),
  },
};
