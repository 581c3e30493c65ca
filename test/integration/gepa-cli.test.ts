import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import type { ExperimentReport } from '../../workflows';
import { startGepaHarness, weatherDataset, type GepaHarness } from '../support/gepa';

let h: GepaHarness;
let dir: string;
beforeAll(async () => {
  h = await startGepaHarness();
  dir = mkdtempSync(join(tmpdir(), 'gepa-cli-'));
});
afterAll(async () => {
  await h?.stop();
});

const REPO = join(__dirname, '..', '..');

/** `npx evolution …` against the test's worker; the evaluator queue comes from configuration. */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, TEMPORAL_ADDRESS: h.config.temporal.address, EVOLUTION_TASK_QUEUE: h.main.taskQueue, EVOLUTION_EVALUATOR_TASK_QUEUE: h.evaluatorQueue };
  return new Promise((resolve) => {
    execFile(process.execPath, [join(REPO, 'bin', 'evolution.js'), ...args], { cwd: REPO, env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

describe('evolution CLI: dataset, optimize, experiment', () => {
  it('stores a dataset, runs an experiment to its result, and shows it; bad input exits non-zero with the reason', async () => {
    const dataset = weatherDataset();
    const put = await cli('dataset', 'put', file('dataset.json', dataset));
    expect(put.code).toBe(0);
    expect(put.stdout).toContain(`stored dataset ${dataset.id}@${dataset.version}: 10 feedback, 10 validation, 10 holdout cases`);

    const { id: _id, ...noId } = dataset;
    const bad = await cli('dataset', 'put', file('bad-dataset.json', noId));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/invalid dataset:\n✖ Invalid input: expected string, received undefined\n {2}→ at id/);

    const request = { seed: WEATHER_SEED_SKILL, datasetRef: { id: dataset.id, version: dataset.version }, scope: { mode: 'app', app: 'gepa-cli' }, options: { maxIterations: 3 } };
    const run = await cli('optimize', '--request', file('request.json', request), '--wait', '--json');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as ExperimentReport;
    expect(report).toMatchObject({ status: 'completed', stopReason: 'max_iterations', iterations: 3, dataset: { id: dataset.id, version: dataset.version } });

    const shown = await cli('experiment', report.experimentId);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`experiment ${report.experimentId}: completed (stop: max_iterations)`);
    expect(shown.stdout).toContain(`promotion: ${report.promotionEligible ? 'ELIGIBLE' : 'not eligible'} — ${report.promotionReason}`);
    expect(shown.stdout).toMatch(/holdout \(10 cases\): seed 0\.\d{4} → winner [01]\.\d{4}/);
    expect(shown.stdout).toContain('submission: not_requested');

    const small = weatherDataset({ holdout: 4 });
    const refused = await cli(
      'optimize',
      '--request',
      file('small.json', { ...request, datasetRef: undefined, dataset: small, submit: true, skillId: 'weather-report', parentRevisionId: 'active' }),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('submit requires at least 10 holdout cases, got 4');

    const missing = await cli('experiment', 'no-such-experiment');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no experiment no-such-experiment');
  });
});
