import { defineConfig } from 'vitest/config';

// Files that kill the shared local services (Temporal, S3) and bring them back with
// `infra up`: they run alone, after every other file has finished.
const SERIAL = ['test/integration/infra-restart.test.ts', 'test/integration/skill-repository-outage.test.ts'];

export default defineConfig({
  test: {
    // Temporal workers load a native module; forks isolate them better than threads.
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: SERIAL,
          // Files side by side. They are independent: each uses its own task queues,
          // scopes, schedules, model-server fault keys and temporary directories, and a
          // file's realServices() never restarts a running service. Most of a file's time
          // is spent waiting on servers, timers and heartbeat timeouts, so on 2 cores
          // 4 files at once keep both busy.
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'serial', include: SERIAL, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
