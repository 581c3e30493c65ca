import { defineConfig } from 'vitest/config';

// `npm run test:cluster`: the suite that runs on the local cluster (infra/cluster), not
// part of `npm test`. One file at a time: its processes and faults load the whole machine.
export default defineConfig({
  test: {
    pool: 'forks',
    include: ['test/cluster/**/*.test.ts'],
    maxWorkers: 1,
    testTimeout: 900_000,
    hookTimeout: 300_000,
  },
});
