import type { Command } from '../command';
import { completionScript, SHELLS, type Shell } from '../completion';

export const completionCommands: Record<string, Command> = {
  completion: {
    summary: 'print the shell completion script (bash: source <(evolution completion bash); zsh: source <(evolution completion zsh))',
    arguments: [{ name: 'SHELL', choices: SHELLS }],
    run: async (ctx) => {
      const { COMMANDS } = await import('./index'); // the table this command is part of
      const shell = ctx.args.positionals[0] as Shell;
      const script = completionScript(shell, 'evolution', COMMANDS);
      ctx.out({ shell, script }, script.trimEnd());
    },
  },
};
