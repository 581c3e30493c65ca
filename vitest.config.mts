import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Temporal workers load a native module; forks isolate them better than threads.
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
