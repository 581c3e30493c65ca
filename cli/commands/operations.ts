import { flag, numberFlag } from '../args';
import type { Command } from '../command';

export const operationsCommands: Record<string, Command> = {
  'codec-server': {
    usage: 'codec-server [--port N] [--host H] [--cors-origin URL[,URL…]]',
    summary: 'serve /encode and /decode for the Temporal UI (needs EVOLUTION_PAYLOAD_KEYS)',
    run: async (ctx) => {
      // Loaded on use, like every command's modules: `evolution help` must not pay for them.
      const [{ AesGcmPayloadCodec }, { startCodecServer }, { ConfigError }] = await Promise.all([
        import('../../runtime/codec/aes-gcm-codec'),
        import('../../console/codec-server'),
        import('../../core'),
      ]);
      const keys = ctx.config().payloadKeys;
      if (!keys?.length) throw new ConfigError('codec-server needs EVOLUTION_PAYLOAD_KEYS (the keys the workers encrypt with)');
      const server = await startCodecServer({
        codec: new AesGcmPayloadCodec(keys),
        port: numberFlag(ctx.args, 'port') ?? 8888,
        host: flag(ctx.args, 'host') ?? '127.0.0.1',
        corsOrigins: flag(ctx.args, 'cors-origin')
          ?.split(',')
          .map((s) => s.trim()),
      });
      ctx.out({ url: server.url }, `codec server on ${server.url} (set it as the Temporal UI's codec endpoint)`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
    },
  },
};
