import type { Command } from '../command';
import { completionScript, SHELLS, type Shell } from '../completion';

/** The completion command over the table it belongs to (passed in: that table includes it). */
export const completionCommands = (allCommands: () => Record<string, Command>): Record<string, Command> => ({
  completion: {
    summary: 'print the shell completion script (bash: source <(evolution completion bash); zsh: source <(evolution completion zsh))',
    arguments: [{ name: 'SHELL', choices: SHELLS }],
    run: async (ctx) => {
      const shell = ctx.args.positionals[0] as Shell;
      const script = completionScript(shell, 'evolution', allCommands());
      ctx.out({ shell, script }, script.trimEnd());
    },
  },
});
