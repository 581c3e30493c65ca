/**
 * The floor's worker, as its own process so its CPU can be read from /proc: the same
 * worker settings as the main worker (createMainWorker), the floor's workflows and
 * no-op activities. Env: TEMPORAL_ADDRESS, FLOOR_TASK_QUEUE, FLOOR_BUNDLE (prebuilt code).
 */
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { floorActivities } from './activities';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: process.env.FLOOR_TASK_QUEUE!,
    workflowBundle: { codePath: process.env.FLOOR_BUNDLE! },
    activities: floorActivities,
    maxCachedWorkflows: 200,
  });
  console.error(`[worker] polling task queue "${process.env.FLOOR_TASK_QUEUE}"`);
  await worker.run();
  await connection.close();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`[floor worker] ${(e as Error).stack}`);
    process.exit(1);
  },
);
