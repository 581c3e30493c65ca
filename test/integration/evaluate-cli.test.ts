import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { infraEnv } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';
import { createSkillStore } from '../../storage';
import { evaluationKeys, type EvaluationReport } from '../../core/evaluation';
import { realServices, uniqueName } from '../support/infra';

const run = promisify(execFile);
const CLI = join(REPO_ROOT, 'bin', 'evolution.js');
const env = () => ({ ...process.env, ...infraEnv() });

async function evolution(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, env: env(), timeout: 180_000, maxBuffer: 16 << 20 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** Starts the command and kills it (SIGKILL, as a crash would) once it has printed `episodes` finished episodes. */
function runUntil(args: string[], episodes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const done = [...err.matchAll(/^(\d+)\/\d+ episodes/gm)].map((m) => Number(m[1]));
      if (done.length && Math.max(...done) >= episodes) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`ended before it was killed (${code}): ${err}`))));
  });
}

describe('evolution evaluate', () => {
  it('--list shows the families with their shapes', async () => {
    const listed = await evolution(['evaluate', '--list', '--json']);
    expect(listed.code).toBe(0);
    const families = JSON.parse(listed.stdout) as { name: string; shape: string; expectedEffect: string }[];
    expect(families.map((f) => f.shape)).toEqual(['multi-step tool workflow', 'recovery from error', 'format and quality', 'negative transfer']);
    expect(families.find((f) => f.expectedEffect === 'hurts')?.name).toBe('record-audit');
  });

  it('a family where the skill helps: killed mid-run and started again, it resumes without repeating a case, and the paired interval excludes zero', async () => {
    const config = await realServices();
    const store = createSkillStore(config.s3);
    const runId = uniqueName('eval');
    const out = mkdtempSync(join(tmpdir(), 'evaluate-'));
    const args = ['evaluate', '--family', 'flaky-report', '--arms', 'baseline,online', '--phases', 'search,confirmation', '--seeds', '5', '--run-id', runId, '--out', out];

    await runUntil(args, 12);
    const before = await store.objects.list(`${evaluationKeys.runPrefix(runId)}cases/`);
    expect(before.length).toBeGreaterThanOrEqual(12);
    const etags = new Map(await Promise.all(before.map(async (k) => [k, (await store.objects.getBytes(k))!.etag] as const)));

    const resumed = await evolution([...args, '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const lastProgress = resumed.stderr
      .trim()
      .split('\n')
      .filter((l) => /episodes/.test(l))
      .pop()!;
    expect(lastProgress).toBe(`60/60 episodes (${before.length} recorded before, not repeated)`);
    for (const [key, etag] of etags) expect((await store.objects.getBytes(key))!.etag).toBe(etag);
    expect(await store.objects.list(`${evaluationKeys.runPrefix(runId)}cases/`)).toHaveLength(60);

    const report = JSON.parse(resumed.stdout) as EvaluationReport;
    for (const phase of ['search', 'confirmation']) {
      const online = report.summaries.find((s) => s.arm === 'online' && s.phase === phase)!;
      expect(online.vsBaseline!.passRate.low, `${phase}: ${JSON.stringify(online.vsBaseline)}`).toBeGreaterThan(0);
      expect(online.skillLoadRate.mean).toBe(1);
      expect(online.passRate.n).toBe(5);
    }
    const online = report.totals.find((t) => t.arm === 'online')!;
    expect(online.skills.length).toBe(1);
    expect(online.setup.modelCalls).toBe(1);
    expect(online.promptTokens).toBeGreaterThan(online.setup.promptTokens);
    const html = await store.objects.getText(evaluationKeys.reportHtml(runId));
    expect(html && 'value' in html ? html.value : '').toContain('<svg');
  });

  it('a family built so the skill hurts shows the loss and lists every case it lost', async () => {
    const runId = uniqueName('eval');
    const result = await evolution([
      'evaluate',
      '--family',
      'record-audit',
      '--arms',
      'baseline,online',
      '--seeds',
      '3',
      '--phases',
      'search',
      '--run-id',
      runId,
      '--out',
      mkdtempSync(join(tmpdir(), 'evaluate-')),
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as EvaluationReport;
    const online = report.summaries.find((s) => s.arm === 'online')!;
    expect(online.vsBaseline!.verdict).toBe('worse');
    expect(online.vsBaseline!.passRate.high).toBeLessThan(0);
    expect(report.negativeTransfer).toHaveLength(9);
    expect(report.negativeTransfer[0].notes).toContain('a live record was purged in a read-only audit');
  });
});

describe('evolution evaluate, the optimized arm', () => {
  it('runs a GEPA experiment on the learned skill with the family evaluator, approves it, and the test cases show what it added', async () => {
    const runId = uniqueName('eval');
    const result = await evolution([
      'evaluate',
      '--family',
      'order-fulfilment',
      '--arms',
      'baseline,online,optimized',
      '--seeds',
      '2',
      '--phases',
      'search',
      '--run-id',
      runId,
      '--out',
      mkdtempSync(join(tmpdir(), 'evaluate-')),
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as EvaluationReport;
    const summary = (arm: string) => report.summaries.find((s) => s.arm === arm)!;
    // The recorded session forgot to notify the customer; the grader says so, the reflector adds it.
    expect(summary('online').quality.mean).toBeCloseTo(2 / 3);
    expect(summary('optimized').quality.mean).toBe(1);
    expect(summary('optimized').passRate.mean).toBe(1);
    const online = report.totals.find((t) => t.arm === 'online')!;
    const optimized = report.totals.find((t) => t.arm === 'optimized')!;
    expect(optimized.skills[0].revisionId).not.toBe(online.skills[0].revisionId);
    // End to end: the optimized arm's setup includes the learning it started from.
    expect(optimized.setup.modelCalls).toBeGreaterThan(online.setup.modelCalls);
    expect(optimized.setup.promptTokens).toBeGreaterThan(online.setup.promptTokens);
  });
});
