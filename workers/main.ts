import { Runtime } from '@temporalio/worker';
import type { EvolutionConfig } from '../core';
import { loadConfig } from '../runtime/config';
import { ensureReachable } from '../runtime/reachability';
import { startWorkerOperations } from './telemetry/operations';
import { startTracingFromEnv } from '../runtime/tracing/from-env';
import { createMainWorker } from './worker';
import { runToExit } from '../runtime/exit';

/**
 * `evolution worker`: runs the main worker until SIGINT/SIGTERM, then drains (in-flight
 * activities get the shutdown grace time to finish, then are cancelled) and exits 0.
 */
export async function runMainWorker(config: EvolutionConfig = loadConfig()): Promise<void> {
  await ensureReachable(config, ['temporal', 's3', 'model']);
  const ops = await startWorkerOperations(config);
  const tracing = await startTracingFromEnv(process.env, 'evolution-worker');
  const { worker, close } = await createMainWorker({ config, identity: `evolution-worker@${process.pid}`, tracing });
  ops.attach(worker);
  const metrics = ops.metricsPort !== undefined ? `; metrics and health on :${ops.metricsPort}` : '';
  // Through the Runtime's logger: one format (JSON lines when JSON logs are on) from start to drain.
  Runtime.instance().logger.info(`[worker] polling task queue "${config.temporal.taskQueue}" on ${config.temporal.address} (namespace ${config.temporal.namespace})${metrics}`);
  try {
    await worker.run(); // returns once SIGTERM/SIGINT (see startWorkerOperations) has drained it
  } finally {
    await close();
    await ops.close();
    await tracing?.shutdown();
  }
}

if (require.main === module) {
  runToExit(runMainWorker, (e) => `[worker] ${(e as Error).message}`);
}
