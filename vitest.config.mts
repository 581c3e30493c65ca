import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Files that kill the shared local services (Temporal, S3) and bring them back with
// `infra up`: they run alone, after every other file has finished.
const SERIAL = [
  'test/integration/infra-restart.test.ts',
  'test/integration/skill-repository-outage.test.ts',
  'test/integration/reviewer-s3-outage.test.ts',
  'test/integration/storage-outage-tolerance.test.ts',
  'test/integration/client-service-errors.test.ts',
  'test/integration/job-retry.test.ts',
  'test/integration/rollout-restart.test.ts',
];

// The longest files (mostly waiting: worker kills and heartbeat timeouts, GEPA searches,
// the S3 lock race) start first, so none of them starts last and stretches the run. Vitest
// orders by the durations it cached from the last run, but a fresh clone (CI) has none and
// falls back to file size, which put a 90 s file last. Only the order depends on this list.
const START_FIRST = [
  'image-build',
  'gepa-experiment',
  'gepa-scale',
  'cli-answers',
  'publication-worker-kill',
  'reviewer-infrastructure-faults',
  'object-store-pointer',
  'secure-connections',
  'redaction-canary',
  'cli-learning',
  'lint',
].map((name) => `/${name}.test.ts`);

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = START_FIRST.findIndex((suffix) => f.moduleId.endsWith(suffix));
      return i < 0 ? START_FIRST.length : i;
    };
    return (await super.sort(files))
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

// Vitest requires one worker count per group; see the 'integration' project for why 4.
const PARALLEL = { maxWorkers: 4, sequence: { groupOrder: 0 } };

export default defineConfig({
  test: {
    // Temporal workers load a native module; forks isolate them better than threads.
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...SERIAL, 'test/unit/**', 'test/cluster/**'],
          // Files side by side. They are independent: each uses its own task queues,
          // scopes, schedule ids, model-server fault keys and temporary directories, and a
          // file's realServices() never restarts a running service. Most of a file's time
          // is spent waiting on servers, timers and heartbeat timeouts, so on 2 cores
          // 4 files at once keep both busy.
          ...PARALLEL,
        },
      },
      {
        extends: true,
        // Pure tests (no mocks, no environment changes) share their worker processes
        // instead of starting one per file; they fill the slots the integration files leave.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false, ...PARALLEL },
      },
      {
        extends: true,
        test: { name: 'serial', include: SERIAL, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
