import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { makeTelemetryFilterString, Runtime, type Logger, type LogLevel } from '@temporalio/worker';

/** A free local port for the SDK's own Prometheus exporter (served to the outside through ops-server). */
export async function freeLocalPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface InstalledRuntime {
  /** Where the SDK's Prometheus exporter listens (127.0.0.1 only), when metrics are on. */
  prometheusAddress?: string;
}

/**
 * Installs the process's Temporal Runtime (once per process, before any connection): the
 * logger and, when metrics are wanted, the SDK's Prometheus exporter, which also exports
 * the product metrics emitted through activity metric meters.
 */
export async function installRuntime(opts: { logger: Logger; level: LogLevel; metrics: boolean }): Promise<InstalledRuntime> {
  const prometheusAddress = opts.metrics ? `127.0.0.1:${await freeLocalPort()}` : undefined;
  Runtime.install({
    logger: opts.logger,
    // Signals are handled by the process (workers/telemetry/operations.ts), once and for all.
    shutdownSignals: [],
    telemetryOptions: {
      // The SDK core's own lines (connection retries, poll errors) go through the same logger,
      // so a JSON worker writes JSON only, instead of the core printing coloured text.
      logging: { filter: makeTelemetryFilterString({ core: opts.level }), forward: {} },
      ...(prometheusAddress ? { metrics: { metricPrefix: 'temporal_', prometheus: { bindAddress: prometheusAddress, countersTotalSuffix: true, unitSuffix: true } } } : {}),
    },
  });
  return { prometheusAddress };
}
