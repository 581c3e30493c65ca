import type { Command } from '../command';

export const infraCommands: Record<string, Command> = {
  infra: {
    usage: 'infra up|down|status|env [--only s3,temporal,model] [--cluster]',
    summary: 'manage the local services (Temporal dev server, SeaweedFS S3, model server)',
    run: async (ctx) =>
      (await import('../../infra/cli')).infraCommand([
        ...ctx.args.positionals,
        ...(ctx.json ? ['--json'] : []),
        ...(ctx.args.flags.has('cluster') ? ['--cluster'] : []),
        ...(ctx.args.flags.has('only') ? ['--only', String(ctx.args.flags.get('only'))] : []),
      ]),
  },
};
