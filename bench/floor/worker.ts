/**
 * The floor's worker, as its own process so its CPU can be read from /proc: the same
 * worker settings as the main worker (createMainWorker: a second connection for the
 * publications' index signals), the floor's workflows and no-op activities.
 * Env: TEMPORAL_ADDRESS, FLOOR_TASK_QUEUE, FLOOR_BUNDLE (prebuilt code), FLOOR_CACHE_SIZE (the main worker's
 * EVOLUTION_WORKER_CACHE_SIZE, which the bench passes on).
 */
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { floorActivities } from './activities';
import { runToExit } from '../../runtime/exit';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const address = process.env.TEMPORAL_ADDRESS!;
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const taskQueue = process.env.FLOOR_TASK_QUEUE!;
  const [connection, indexConnection] = await Promise.all([NativeConnection.connect({ address }), NativeConnection.connect({ address })]);
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowBundle: { codePath: process.env.FLOOR_BUNDLE! },
    activities: floorActivities(new Client({ connection: indexConnection, namespace }), taskQueue),
    maxCachedWorkflows: Number(process.env.FLOOR_CACHE_SIZE ?? 200),
  });
  console.error(`[worker] polling task queue "${taskQueue}"`);
  await worker.run();
  await Promise.all([connection.close(), indexConnection.close()]);
}

runToExit(main, (e) => `[floor worker] ${(e as Error).stack}`);
