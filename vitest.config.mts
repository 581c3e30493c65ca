import { defineConfig } from 'vitest/config';

// Temporal workers load a native module; forks isolate them better than threads.
const shared = { pool: 'forks' as const, testTimeout: 120_000, hookTimeout: 180_000 };
// Files that change or count state of the shared local model server (its fault queue and
// its global stats) must not overlap with files whose reviewer calls would see it.
const SERIAL = ['test/integration/model-server.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: SERIAL,
          // Integration files mostly wait on servers (timers, S3, the model server), and each
          // uses task queues, scopes and sessions of its own (uniqueName / random task queues
          // in test/support), so several run at once even on 2 cores (vitest's default: 1).
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      { test: { ...shared, name: 'serial', include: SERIAL, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
