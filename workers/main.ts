import { loadConfig } from '../client/config';
import { ensureReachable } from '../client/reachability';
import { createMainWorker } from './worker';

/** `evolution worker`: runs the main worker until SIGINT/SIGTERM, then drains and exits. */
export async function runMainWorker(): Promise<void> {
  const config = loadConfig();
  await ensureReachable(config, ['temporal', 's3', 'model']);
  const { worker, connection } = await createMainWorker({ config, identity: `evolution-worker@${process.pid}` });
  console.error(`[worker] polling task queue "${config.temporal.taskQueue}" on ${config.temporal.address} (namespace ${config.temporal.namespace})`);
  try {
    await worker.run(); // the SDK installs SIGINT/SIGTERM handlers that shut the worker down gracefully
  } finally {
    await connection.close();
  }
}

if (require.main === module) {
  runMainWorker().then(
    () => process.exit(0),
    (e) => {
      console.error(`[worker] ${(e as Error).message}`);
      process.exit(1);
    },
  );
}
