import { flag } from '../args';
import type { Command } from '../command';

export const consoleCommands: Record<string, Command> = {
  console: {
    options: {
      host: { value: 'HOST', description: 'address to listen on (default 127.0.0.1, or EVOLUTION_CONSOLE_HOST)' },
      port: { value: 'PORT', number: true, description: 'port to listen on (default 8080, or EVOLUTION_CONSOLE_PORT)' },
    },
    summary: 'the approver console: a web page to review, decide, roll back and watch experiments (users: EVOLUTION_CONSOLE_USERS)',
    run: async (ctx) => {
      const { createSkillStore } = await import('../../storage');
      const { connectTemporal } = await import('../../runtime/connection');
      const { consoleSettingsFromEnv } = await import('../../console/settings');
      const { startConsole } = await import('../../console/server');
      const settings = consoleSettingsFromEnv(process.env, { host: flag(ctx.args, 'host'), port: flag(ctx.args, 'port') });
      if (!settings.sessionKeys)
        process.stderr.write(
          'evolution console: EVOLUTION_CONSOLE_SESSION_KEYS is not set, so sessions are sealed with a key of this process: they end when it restarts and no other replica accepts them\n',
        );
      const config = ctx.config();
      const temporal = await connectTemporal(config);
      const running = await startConsole({ client: temporal.client, store: createSkillStore(config.s3), config }, settings);
      ctx.out({ url: running.url }, `evolution console listening on ${running.url} (Ctrl-C stops it)`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await running.close();
      await temporal.close();
    },
  },
};
