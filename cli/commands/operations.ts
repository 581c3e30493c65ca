import { flag, numberFlag } from '../args';
import type { Command } from '../command';

export const operationsCommands: Record<string, Command> = {
  'codec-server': {
    options: {
      port: { value: 'PORT', number: true, description: 'port to listen on (or EVOLUTION_CODEC_PORT)' },
      host: { value: 'HOST', description: 'address to listen on (or EVOLUTION_CODEC_HOST)' },
      'cors-origin': { value: 'URLS', description: 'comma-separated origins of the Temporal UI allowed to call it' },
      'allowed-host': { value: 'HOSTS', description: 'comma-separated HOST:PORT values the Host header may name' },
    },
    summary: 'serve /decode for the Temporal UI to signed-in users (needs EVOLUTION_PAYLOAD_KEYS and the console users or OIDC)',
    run: async (ctx) => {
      // Loaded on use, like every command's modules: `evolution help` must not pay for them.
      const [{ AesGcmPayloadCodec }, { startCodecServer }, { codecServerSettingsFromEnv }, { tokenAuthenticator }, { jwtVerifier }, { trustedProxies }, { ConfigError }] =
        await Promise.all([
          import('../../codec/aes-gcm-codec'),
          import('../../console/codec-server'),
          import('../../console/codec-settings'),
          import('../../console/auth'),
          import('../../console/oidc'),
          import('../../console/client-address'),
          import('../../core'),
        ]);
      const keys = ctx.config().payloadKeys;
      if (!keys?.length) throw new ConfigError('codec-server needs EVOLUTION_PAYLOAD_KEYS (the keys the workers encrypt with)');
      const settings = codecServerSettingsFromEnv(process.env, {
        port: numberFlag(ctx.args, 'port'),
        host: flag(ctx.args, 'host'),
        corsOrigins: flag(ctx.args, 'cors-origin'),
        allowedHosts: flag(ctx.args, 'allowed-host'),
      });
      const server = await startCodecServer({
        codec: new AesGcmPayloadCodec(keys),
        authenticate: tokenAuthenticator(settings.users, settings.oidc ? jwtVerifier(settings.oidc) : undefined),
        trust: trustedProxies(settings.trustedProxies),
        ...settings,
      });
      ctx.out(
        { url: server.url, encode: settings.encode ?? false },
        `codec server on ${server.url} (the Temporal UI's codec endpoint, with "pass access token" on)${settings.encode ? '; /encode is on' : ''}`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
    },
  },
};
