import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Temporal workers load a native module; forks isolate them better than threads.
    pool: 'forks',
    // One file at a time (vitest's default on 2 cores). Running integration files side by
    // side is not safe yet: a test file's infraUp restarts a service whose health check
    // timed out on a loaded machine, on a new port, under the feet of the files in flight.
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
