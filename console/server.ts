import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createConsoleApp, type ConsoleAppOptions } from './app';
import type { ConsoleDeps } from './read-model';
import type { ConsoleSettings } from './settings';

export interface RunningConsole {
  url: string;
  close(): Promise<void>;
}

/** Serves the console on `host:port` (port 0 picks a free one); resolves once it listens. */
export async function startConsole(deps: ConsoleDeps, settings: ConsoleSettings, opts: ConsoleAppOptions = {}): Promise<RunningConsole> {
  const app = createConsoleApp(deps, settings, opts);
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: settings.host, port: settings.port }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host === '0.0.0.0' ? '127.0.0.1' : settings.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
