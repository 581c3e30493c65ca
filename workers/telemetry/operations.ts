import type { Worker } from '@temporalio/worker';
import type { EvolutionConfig } from '../../core';
import { createLogger } from './logger';
import { startOpsServer, type RunningOpsServer } from './ops-server';
import { installRuntime } from './runtime';
import { exitWhenFlushed } from '../../runtime/exit';

export interface WorkerOperations {
  /** Call once the worker exists: /readyz follows its state. */
  attach(worker: Worker): void;
  metricsPort?: number;
  close(): Promise<void>;
}

/**
 * Everything a deployed worker process needs around the worker itself: the Runtime (logger,
 * Prometheus exporter) installed first, then the ops port (EVOLUTION_METRICS_PORT) with
 * /metrics, /healthz and /readyz. Call before connecting to Temporal.
 */
export async function startWorkerOperations(config: EvolutionConfig): Promise<WorkerOperations> {
  const ops = config.operations;
  const metricsPort = ops?.metricsPort;
  const level = ops?.logLevel ?? 'INFO';
  const { prometheusAddress } = await installRuntime({
    logger: createLogger({ format: ops?.logFormat ?? 'auto', level }),
    level,
    metrics: metricsPort !== undefined,
  });
  let worker: Worker | undefined;
  let server: RunningOpsServer | undefined;
  if (metricsPort !== undefined) {
    server = await startOpsServer({ port: metricsPort, prometheusAddress, ready: () => worker?.getState() === 'RUNNING' });
  }
  // SIGTERM/SIGINT start a graceful shutdown (poll stops, in-flight tasks finish within the
  // shutdown grace time, then worker.run() resolves and the process exits 0). The handlers
  // stay installed so a second signal (a process group, an impatient operator) cannot kill
  // the process halfway through draining.
  const stop = () => {
    if (!worker) return void exitWhenFlushed(0); // still starting: nothing in flight
    if (worker.getState() === 'RUNNING') worker.shutdown();
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, stop);
  return {
    attach: (w) => (worker = w),
    ...(server ? { metricsPort: server.port } : {}),
    close: async () => server?.close(),
  };
}
