/**
 * GEPA evaluation wall time against the ideal: an experiment that only evaluates (seed on
 * Validation, then Holdout; no search iterations) on evaluators that each take a fixed
 * delay per case and run one evaluate call at a time. Ideal = sum of case delays /
 * evaluator slots, so the ratio shows what orchestration (child workflows, activities,
 * S3 records) adds and whether a second evaluator worker halves the time.
 * Rounds alternate 1 and 2 evaluator workers, each its own `evolution evaluator-worker`
 * process (one process may not run two workers on one task queue). Env: BENCH_ROUNDS
 * (default 3), BENCH_CASE_DELAY_MS (default 100).
 */
import { join } from 'node:path';
import { infraEnv } from '../infra';
import { REPO_ROOT } from '../infra/paths';
import { ensureBuild } from '../runtime/build-state';
import { runExperiment } from '../client/optimization';
import { uniqueName } from '../test/support/infra';
import { startGepaHarness, weatherDataset, weatherRequest } from '../test/support/gepa';
import { startProcess, type StartedProcess } from './support/processes';
import { median, spread } from './support/stats';
import type { BenchContext, BenchFigures } from './support/types';

const VALIDATION = 40;
const HOLDOUT = 20;

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const caseDelayMs = Number(process.env.BENCH_CASE_DELAY_MS ?? 100);
  ensureBuild((l) => ctx.log(l)); // the in-process main worker loads the prebuilt workflow bundle when current
  const h = await startGepaHarness();
  const ratios: Record<'one' | 'two', number[]> = { one: [], two: [] };
  const wall: Record<'one' | 'two', number[]> = { one: [], two: [] };
  try {
    for (let r = 0; r < rounds; r++) {
      for (const [label, workers] of [
        ['one', 1],
        ['two', 2],
      ] as const) {
        const queue = uniqueName('bench-eval');
        const evaluators: StartedProcess[] = await Promise.all(
          Array.from({ length: workers }, (_, i) =>
            startProcess(
              process.execPath,
              [
                join(REPO_ROOT, 'bin', 'evolution.js'),
                'evaluator-worker',
                '--task-queue',
                queue,
                '--identity',
                `${queue}-${i}`,
                '--max-concurrent',
                '1',
                '--case-delay-ms',
                String(caseDelayMs),
              ],
              { env: infraEnv(), readyLine: 'polling task queue' },
            ),
          ),
        );
        const request = weatherRequest(queue, weatherDataset({ validation: VALIDATION, holdout: HOLDOUT }), {
          options: { maxIterations: 0, evaluationChunkSize: 5, evaluationConcurrency: 4 },
        });
        const t0 = performance.now();
        let ms = 0;
        const report = await runExperiment(h.deps, request).finally(async () => {
          ms = performance.now() - t0;
          await Promise.all(evaluators.map((e) => e.stop()));
        });
        if (report.status !== 'completed') throw new Error(`gepa bench: experiment ${report.experimentId} ${report.status}: ${report.error ?? ''}`);
        const idealMs = (report.metricCallsUsed * caseDelayMs) / workers;
        wall[label].push(ms);
        ratios[label].push(ms / idealMs);
        ctx.log(
          `round ${r + 1}/${rounds}: ${workers} evaluator worker(s), ${report.metricCallsUsed} cases × ${caseDelayMs} ms: ${ms.toFixed(0)} ms wall vs ${idealMs.toFixed(0)} ms ideal → ${(ms / idealMs).toFixed(2)}x`,
        );
      }
    }
  } finally {
    await h.stop();
  }
  const figures = {
    caseDelayMs,
    cases: VALIDATION + HOLDOUT,
    oneWorker: { wallMs: median(wall.one), overIdeal: median(ratios.one), ratios: ratios.one },
    twoWorkers: { wallMs: median(wall.two), overIdeal: median(ratios.two), ratios: ratios.two },
    speedUpFromSecondWorker: median(wall.one) / median(wall.two),
  };
  ctx.log(`1 evaluator worker   wall/ideal ${spread(ratios.one)}   (${figures.oneWorker.wallMs.toFixed(0)} ms)`);
  ctx.log(`2 evaluator workers  wall/ideal ${spread(ratios.two)}   (${figures.twoWorkers.wallMs.toFixed(0)} ms)`);
  ctx.log(`second worker speeds evaluation up ${figures.speedUpFromSecondWorker.toFixed(2)}x (ideal 2x)`);
  return figures;
}
