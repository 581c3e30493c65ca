import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExperimentRecords, runExperiment } from '../../client/optimization';
import type { EvaluationWindow } from '../../workers/evaluator';
import { uniqueName } from '../support/infra';
import { startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';

let h: GepaHarness;
beforeAll(async () => {
  h = await startGepaHarness();
});
afterAll(async () => {
  await h?.stop();
});

const REPO = join(__dirname, '..', '..');

/** `npx evolution evaluator-worker …` as its own process; resolves once it polls. */
function startEvaluatorProcess(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(REPO, 'bin', 'evolution.js'), 'evaluator-worker', ...args], {
    cwd: REPO,
    env: { ...process.env, TEMPORAL_ADDRESS: h.config.temporal.address },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`evaluator worker did not start:\n${err}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.includes('polling task queue')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`evaluator worker exited with ${code}:\n${err}`));
    });
  });
}

function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('GEPA at scale', () => {
  it('a 1,000-metric-call experiment completes with small workflow histories (continue-as-new)', async () => {
    const dataset = weatherDataset({ feedback: 50, validation: 50, holdout: 50, criticalEvery: 10 });
    const request = weatherRequest(h.evaluatorQueue, dataset, {
      options: { maxIterations: 200, maxMetricCalls: 1000, reflectionBatchSize: 25, evaluationChunkSize: 10, evaluationConcurrency: 4 },
    });
    const started = Date.now();
    const report = await runExperiment(h.deps, request, { iterationsPerRun: 10 });
    const wallMs = Date.now() - started;

    expect(report.status).toBe('completed');
    expect(report.stopReason).toBe('metric_budget');
    expect(report.metricCallsUsed).toBeLessThanOrEqual(1000);
    // Search stops only when one more worst-case iteration (2×25 + 50) plus the reserve (2×50) cannot fit.
    expect(report.metricCallsUsed).toBeGreaterThan(1000 - 100 - 100);
    expect(report.promotionEligible).toBe(true);
    const { evaluations, log } = await readExperimentRecords(h.store, report.experimentId);
    expect(evaluations.reduce((n, e) => n + e.caseIds.length, 0)).toBe(report.metricCallsUsed);
    expect(log).toHaveLength(report.iterations);

    const runs = [];
    for await (const w of h.main.client.workflow.list({ query: `WorkflowId = '${report.workflowId}'` })) runs.push(w);
    expect(runs.length).toBe(report.runs);
    expect(report.runs).toBeGreaterThan(1);
    const maxEvents = Math.max(...runs.map((r) => r.historyLength));
    const maxBytes = Math.max(...runs.map((r) => r.historySize ?? 0));
    expect(maxEvents).toBeLessThan(1000);
    expect(maxBytes).toBeLessThan(1024 * 1024);
    console.log(
      `[gepa] 1,000-call experiment: ${report.metricCallsUsed} metric calls, ${report.iterations} iterations, ${report.candidateCount} candidates, ` +
        `${report.runs} workflow runs (largest: ${maxEvents} events, ${Math.round(maxBytes / 1024)} KiB) in ${(wallMs / 1000).toFixed(1)} s wall time`,
    );
    // A thousand evaluations through the real services: 80 s in a fresh-clone run, over the suite's 120 s default when other work shares the two cores.
  }, 300_000);

  it('evaluation runs in parallel across two evaluator worker processes', async () => {
    const queue = uniqueName('eval-pair');
    const dir = mkdtempSync(join(tmpdir(), 'gepa-windows-'));
    const files = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    const workers: ChildProcess[] = [];
    try {
      // Each process evaluates one chunk at a time, so any overlap is between the two processes.
      workers.push(
        ...(await Promise.all(
          ['a', 'b'].map((id, i) =>
            startEvaluatorProcess(['--task-queue', queue, '--identity', `evaluator-${id}`, '--delay-ms', '400', '--max-concurrent', '1', '--windows-file', files[i]]),
          ),
        )),
      );
      const report = await runExperiment(
        h.deps,
        weatherRequest(queue, weatherDataset({ validation: 20 }), { options: { maxIterations: 0, evaluationChunkSize: 5, evaluationConcurrency: 4 } }),
      );
      expect(report.status).toBe('completed');
      expect(report.metricCallsUsed).toBe(20 + 10);

      const windows = files.flatMap((f) =>
        readFileSync(f, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as EvaluationWindow),
      );
      const a = windows.filter((w) => w.identity === 'evaluator-a');
      const b = windows.filter((w) => w.identity === 'evaluator-b');
      expect(a.length).toBeGreaterThan(0);
      expect(b.length).toBeGreaterThan(0);
      expect(a.length + b.length).toBe(4 + 2); // 20 validation cases and 10 holdout cases in chunks of 5
      const overlaps = (x: EvaluationWindow, y: EvaluationWindow) => x.startedAt < y.endedAt && y.startedAt < x.endedAt;
      for (const own of [a, b]) for (const x of own) for (const y of own) if (x !== y) expect(overlaps(x, y)).toBe(false);
      const parallel = a.flatMap((x) => b.filter((y) => overlaps(x, y)).map((y) => [x, y]));
      expect(parallel.length).toBeGreaterThan(0);
    } finally {
      await Promise.all(workers.map(stopProcess));
    }
  });
});
