import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it, onTestFinished } from 'vitest';
import { infraEnv } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';
import { createSkillStore } from '../../storage';
import { CaseResultSchema, evaluationKeys, type EvaluationReport } from '../../core/evaluation';
import { startConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import { signIn, writeUsersFile } from '../support/console';
import { evaluationRunWorkflowId } from '../../core/workflow-ids';
import { evaluationTaskQueues } from '../../core/workflow-api/evaluation';
import { startMainWorker } from '../../workers/in-process';
import { startModelServer } from '../../infra/model-server/server';
import { realServices, uniqueName } from '../support/infra';
import { Client, Connection } from '@temporalio/client';
import { temporalConnectionOptions } from '../../runtime/temporal-profile';
import { evolutionDataConverter } from '../../codec/data-converter';
import type { EvolutionConfig } from '../../core';

async function temporalClient(config: EvolutionConfig): Promise<Client> {
  const connection = await Connection.connect(temporalConnectionOptions(config));
  return new Client({ connection, namespace: config.temporal.namespace, dataConverter: evolutionDataConverter(config) });
}

const run = promisify(execFile);
const CLI = join(REPO_ROOT, 'bin', 'evolution.js');
const env = () => ({ ...process.env, ...infraEnv() });

async function evolution(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, env: { ...env(), ...extraEnv }, timeout: 180_000, maxBuffer: 16 << 20 });
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
      const done = [...err.matchAll(/, (\d+)\/\d+ episodes/g)].map((m) => Number(m[1]));
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

  it('a family where the skill helps, as a workflow: its worker killed mid-run it is attached to again, the workflow terminated it resumes from its records, no case runs twice, and the paired interval excludes zero', async () => {
    const config = await realServices();
    const store = createSkillStore(config.s3);
    const runId = uniqueName('eval');
    const out = mkdtempSync(join(tmpdir(), 'evaluate-'));
    const args = ['evaluate', '--family', 'flaky-report', '--arms', 'baseline,online', '--phases', 'search,confirmation', '--seeds', '5', '--run-id', runId, '--out', out];
    const recorded = () => store.objects.list(`${evaluationKeys.runPrefix(runId)}cases/`);

    // The command (and the run's worker in it) crashes: the workflow goes on waiting for a worker.
    await runUntil(args, 12);
    const client = await temporalClient(config);
    const handle = client.workflow.getHandle(evaluationRunWorkflowId(runId));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    const status = await evolution(['evaluation', runId]);
    expect(status.stdout).toContain(`evaluation ${runId}: workflow running`);
    expect(status.stdout).toContain('no worker is running it');

    // Started again, it attaches to the same workflow, which carries on; then that crashes too, and the run is terminated.
    await runUntil(args, 24);
    const firstRun = (await handle.describe()).runId;
    await handle.terminate('test: the run is stopped outright');
    const before = await recorded();
    expect(before.length).toBeGreaterThanOrEqual(24);
    const etags = new Map(await Promise.all(before.map(async (k) => [k, (await store.objects.getBytes(k))!.etag] as const)));

    // Started a third time: a new workflow run that reads every recorded case back instead of running it.
    const resumed = await evolution([...args, '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await handle.describe()).runId).not.toBe(firstRun);
    const lastProgress = resumed.stderr
      .trim()
      .split('\n')
      .filter((l) => /episodes/.test(l))
      .pop()!;
    expect(lastProgress).toContain(`60/60 episodes (${before.length} recorded before, not repeated)`);
    for (const [key, etag] of etags) expect((await store.objects.getBytes(key))!.etag).toBe(etag);
    expect(await recorded()).toHaveLength(60);
    // Every agent call is in exactly one record: none ran for a case already recorded.
    const result = (await handle.result()) as { episodes: number; recordedBefore: number };
    expect(result).toMatchObject({ episodes: 60, recordedBefore: before.length });
    await client.connection.close();

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

describe('evolution evaluate with a judge, and the run in the console', () => {
  it('the judge scores every episode beside the grader (deterministic stand-in), and the console shows the run and serves its report to who may see it', async () => {
    const config = await realServices();
    const store = createSkillStore(config.s3);
    const runId = uniqueName('eval');
    const args = ['evaluate', '--family', 'flaky-report', '--arms', 'baseline', '--phases', 'search', '--seeds', '2', '--run-id', runId, '--judge-model', 'evolution-local-judge'];
    const result = await evolution([...args, '--out', mkdtempSync(join(tmpdir(), 'evaluate-')), '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as EvaluationReport;
    const baseline = report.summaries.find((s) => s.arm === 'baseline')!;
    expect(report.model.judge).toBe('evolution-local-judge');
    expect(baseline.judgeQuality!.n).toBe(2);
    const judge = report.totals.find((t) => t.arm === 'baseline')!.judge!;
    expect(judge.modelCalls).toBe(baseline.episodes);
    expect(judge.promptTokens).toBeGreaterThan(0);
    const keys = await store.objects.list(`${evaluationKeys.runPrefix(runId)}cases/`);
    expect(keys).toHaveLength(baseline.episodes);
    for (const key of keys) expect((await store.objects.getJson(key, CaseResultSchema))!.value.judge!.reason).toMatch(/^stand-in judge: /);

    const { path: usersPath, users } = writeUsersFile([
      { name: 'vera', role: 'viewer', scopes: ['apps/*'] },
      { name: 'otto', role: 'viewer', scopes: ['apps/elsewhere'] },
    ]);
    const client = await temporalClient(config);
    const web = await startConsole({ client, store, config }, consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: usersPath }, { port: 0 }));
    try {
      const vera = await signIn(web.url, users.vera.token);
      const page = (path: string, cookie: string) => fetch(`${web.url}${path}`, { headers: { cookie }, redirect: 'manual' });
      const experiments = await page('/experiments', vera);
      expect(experiments.status).toBe(200);
      expect(await experiments.text()).toContain(`<a href="/evaluations/${runId}">${runId}</a>`);
      const run = await page(`/evaluations/${runId}`, vera);
      expect(run.status).toBe(200);
      const text = await run.text();
      expect(text).toContain('Workflow: completed');
      expect(text).toContain(`${baseline.episodes} cases recorded`);
      expect(text).toContain(`/evaluations/${runId}/report`);
      const full = await page(`/evaluations/${runId}/report`, vera);
      expect(full.status).toBe(200);
      expect(full.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await full.text();
      expect(html).toContain('<svg');
      expect(html).toContain('judge quality');
      expect(html).not.toContain('<script');
      // Another scope's viewer does not learn the run exists.
      const otto = await signIn(web.url, users.otto.token);
      expect((await page(`/evaluations/${runId}`, otto)).status).toBe(404);
      expect((await page(`/evaluations/${runId}/report`, otto)).status).toBe(404);
      expect(await (await page('/experiments', otto)).text()).not.toContain(runId);
    } finally {
      await web.close();
      await client.connection.close();
    }
  });
});

describe('evolution evaluate --detach', () => {
  it('starts the run in the background and prints its id; `evolution evaluation RUN_ID` shows its progress while it runs, then its report', async () => {
    const config = await realServices();
    const runId = uniqueName('eval');
    const out = mkdtempSync(join(tmpdir(), 'evaluate-'));
    // Every model answer of this run takes a second: the 9 cases outlast the moment between the
    // command's return and the pause below (on a busy machine the run finished inside it).
    const slowModel = await startModelServer({ port: 0, defaultFault: { mode: 'slow', delayMs: 1000 } });
    onTestFinished(() => slowModel.close());
    const detached = await evolution(
      ['evaluate', '--family', 'flaky-report', '--arms', 'baseline', '--phases', 'search', '--seeds', '3', '--run-id', runId, '--out', out, '--detach'],
      { OPENAI_BASE_URL: `${slowModel.url}/v1` },
    );
    expect(detached.code, detached.stderr).toBe(0);
    const log = join(out, 'run.log');
    const started = new RegExp(
      `^${runId}\\n {2}running in the background \\(pid (\\d+), log ${log.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\); \`evolution evaluation ${runId}\` shows its progress$`,
    );
    expect(detached.stdout.trim()).toMatch(started);
    const pid = Number(started.exec(detached.stdout.trim())![1]);

    // Held still while it runs (its process paused), so the view is certain to catch it running: a
    // worker of this test on the run's workflow queue answers the progress query, and runs no case.
    process.kill(pid, 'SIGSTOP');
    const answering = await startMainWorker(config, { taskQueue: evaluationTaskQueues(runId).workflows });
    let running: string | undefined;
    let consolePage = '';
    try {
      for (let i = 0; i < 90 && !running; i++) {
        const view = await evolution(['evaluation', runId]);
        expect(view.code, view.stderr).toBe(0);
        expect(view.stdout).toContain(`evaluation ${runId}: workflow running`);
        if (new RegExp(`^ {2}evaluation ${runId}: (planning|setting up|running|reporting)`, 'm').test(view.stdout)) running = view.stdout;
        else await new Promise((r) => setTimeout(r, 1000));
      }
      // The console's run page shows the same progress, a row per arm and phase.
      const { path: usersPath, users } = writeUsersFile([{ name: 'vera', role: 'viewer', scopes: ['*'] }]);
      const web = await startConsole(
        { client: answering.client, store: answering.store, config: answering.config },
        consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: usersPath }, { port: 0 }),
      );
      try {
        const res = await fetch(`${web.url}/evaluations/${runId}`, { headers: { cookie: await signIn(web.url, users.vera.token) }, redirect: 'manual' });
        expect(res.status).toBe(200);
        consolePage = await res.text();
      } finally {
        await web.close();
      }
    } finally {
      process.kill(pid, 'SIGCONT');
      await answering.stop();
    }
    expect(running, 'the progress query was never answered').toBeDefined();
    expect(consolePage).toContain('Workflow: running');
    expect(consolePage).toMatch(/Stage: <strong>(planning|setting up|running|reporting)<\/strong>/);
    expect(consolePage).toMatch(/<th>Phase<\/th>\s*<th>Arm<\/th>\s*<th>Episodes<\/th>\s*<th class="num">Passed<\/th>/);
    if (!consolePage.includes('Stage: <strong>planning')) {
      expect(consolePage).toMatch(/<td>search<\/td>\s*<td>baseline<\/td>\s*<td><progress max="9" value="\d+"><\/progress> \d+\/9<\/td>/);
    }
    expect(running).toContain('family flaky-report, arms baseline, phases search, 3 seeds');

    // Let go, it finishes: the same command shows the report, and the background command wrote it beside its log.
    let done: string | undefined;
    for (let i = 0; i < 300 && !done; i++) {
      const view = await evolution(['evaluation', runId]);
      expect(view.code, view.stderr).toBe(0);
      if (view.stdout.includes('workflow completed')) done = view.stdout;
      else await new Promise((r) => setTimeout(r, 1000));
    }
    expect(done, 'the run never completed').toBeDefined();
    expect(done).toContain(`evaluation ${runId}: workflow completed, 9 cases recorded`);
    expect(done).toMatch(/^ {2}baseline +search +pass \d+% /m);
    expect(done).toContain(`report: s3 evaluations/${runId}/report.html`);
    for (let i = 0; i < 120 && !existsSync(join(out, 'report.json')); i++) await new Promise((r) => setTimeout(r, 500));
    expect((JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as EvaluationReport).runId).toBe(runId);
    expect(readFileSync(log, 'utf8')).toContain(`evaluation ${runId}: family flaky-report`);
  }, 600_000);
});
