/**
 * The evaluator contract from another SDK (issue 34: "Python evaluator included where the
 * contract changes"): examples/python-evaluator/evaluator.py, on the Temporal Python SDK from
 * PyPI (a cached venv, infra/python-venv.ts), answers a GEPA experiment's evaluations with
 * tokens, cost and versions; the experiment sums the spend, records the versions and caches
 * under them, so the same run again is answered by the cache.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExperimentRecords, runExperiment } from '../../client/optimization';
import { REPO_ROOT } from '../../infra/paths';
import { ensurePythonVenv } from '../../infra/python-venv';
import { uniqueName } from '../support/infra';
import { startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';

const DIR = join(REPO_ROOT, 'examples', 'python-evaluator');
let h: GepaHarness;
let evaluator: ChildProcess | undefined;
const queue = uniqueName('python-eval');

beforeAll(async () => {
  const python = ensurePythonVenv('python-evaluator', join(DIR, 'requirements.txt'), (l) => console.log(l));
  h = await startGepaHarness();
  const { address, namespace } = h.config.temporal;
  evaluator = spawn(python, [join(DIR, 'evaluator.py'), '--task-queue', queue, '--address', address, '--namespace', namespace, '--model-version', 'py-model-1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    evaluator!.once('exit', (code) => reject(new Error(`the Python evaluator exited (${code}) before polling`)));
    evaluator!.stdout!.on('data', (d: Buffer) => d.toString().includes('polling') && resolve());
  });
}, 900_000);

afterAll(async () => {
  evaluator?.kill('SIGTERM');
  await h?.stop();
});

describe('the Python example evaluator (Temporal Python SDK) against the contract', () => {
  it('answers an experiment with tokens, cost and versions; the same run again is answered by the cache', async () => {
    const request = weatherRequest(queue, weatherDataset({ seed: 41, feedback: 6, validation: 6, holdout: 6 }), { options: { maxIterations: 2, randomSeed: 3 } });
    const first = await runExperiment(h.deps, request);
    expect(first.status).toBe('completed');
    expect(first.metricCallsUsed).toBeGreaterThan(0);
    expect(first.spend!.evaluator.tokens).toBeGreaterThan(0);
    expect(first.spend!.evaluator.costUsd).toBeCloseTo(first.spend!.evaluator.tokens * 0.000002, 6);
    const records = await readExperimentRecords(h.store, first.experimentId);
    expect(records.evaluations.length).toBeGreaterThan(0);
    for (const e of records.evaluations) expect(e.evaluator).toEqual({ evaluatorVersion: 'rubric-py@1', modelVersion: 'py-model-1' });

    const second = await runExperiment(h.deps, request);
    expect(second.cacheHits).toBe(first.metricCallsUsed);
    expect(second.metricCallsUsed).toBe(0);
    expect(second.spend!.evaluator).toEqual({ tokens: 0, costUsd: 0 });
  }, 600_000);
});
