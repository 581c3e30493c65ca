import { getExperiment } from '../../client/optimization';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSkillMarkdown, SkillSpecSchema } from '../../core';
import type { ExperimentReport } from '../../workflows';
import { uniqueName } from '../support/infra';
import { publishNewRevision, seedManagedSkill, startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';

// Clear answers for scripts: exit codes that say what happened, and the data behind them.
let h: GepaHarness;
let dir: string;
beforeAll(async () => {
  h = await startGepaHarness();
  dir = mkdtempSync(join(tmpdir(), 'cli-answers-'));
});
afterAll(async () => {
  await h?.stop();
});

const REPO = join(__dirname, '..', '..');

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: h.config.temporal.address,
    S3_ENDPOINT: h.config.s3.endpoint,
    EVOLUTION_TASK_QUEUE: h.main.taskQueue,
    EVOLUTION_EVALUATOR_TASK_QUEUE: h.evaluatorQueue,
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [join(REPO, 'bin', 'evolution.js'), ...args], { cwd: REPO, env, timeout: 180_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

describe('CLI answers for scripts', () => {
  it('skill NAME --json carries the spec fields, for an imported skill and a managed one', async () => {
    const app = uniqueName('spec');
    const markdown =
      '---\nname: deploy-checklist\ndescription: Steps before a deploy\n---\n\n## When to use\n\nBefore any production deploy.\n\n## Steps\n\n1. Run the tests.\n2. Tag the release.\n\n## Pitfalls\n\n- Forgetting the changelog.\n';
    expect((await cli('import-skill', file('SKILL.md', markdown), '--app', app)).code).toBe(0);
    const imported = await cli('skill', 'deploy-checklist', '--app', app, '--json');
    expect(imported.code).toBe(0);
    const body = JSON.parse(imported.stdout) as { spec: unknown; markdown: string };
    expect(SkillSpecSchema.parse(body.spec)).toEqual(parseSkillMarkdown(markdown));

    const managed = await seedManagedSkill(h.store);
    await h.store.reconcileScopeIndex(managed.scopeKey); // the index workflow's repair from the pointers, which the seed helper skips
    const shown = await cli('skill', managed.spec.name, '--app', managed.scope.app!, '--json');
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).spec).toEqual(managed.spec);
  });

  it('optimize --wait and experiment --watch into a pipe: progress as plain lines on stderr (iterations, metric calls, best score), the result on stdout', async () => {
    const skill = await seedManagedSkill(h.store);
    const experimentId = uniqueName('progress-cli');
    const request = weatherRequest(h.evaluatorQueue, weatherDataset(), {
      experimentId,
      scope: skill.scope,
      skillId: skill.skillId,
      parentRevisionId: skill.revisionId,
      options: { maxIterations: 3 },
    });
    const running = cli('optimize', '--request', file('progress.json', request), '--wait');
    // Watched from the time it exists (a watch of an unknown experiment is a not-found error).
    for (let i = 0; !(await getExperiment({ client: h.main.client, store: h.store }, experimentId).catch(() => undefined)); i++) {
      if (i > 600) throw new Error('the experiment never started');
      await new Promise((r) => setTimeout(r, 100));
    }
    const watched = cli('experiment', experimentId, '--watch');
    const finished = await running;
    expect(finished.stdout).toMatch(new RegExp(`^experiment ${experimentId}: completed`));
    const lines = finished.stderr.split('\n').filter((l) => l.startsWith(`experiment ${experimentId}: `));
    expect(lines.length, finished.stderr).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/: (preparing|search|holdout|submission|done), iteration \d+\/3, metric calls \d+\/\d+, .*best (\d\.\d{3}|—)/);
    expect(finished.stderr).not.toContain('\r');
    const watch = await watched;
    expect(watch.stdout).toMatch(new RegExp(`^experiment ${experimentId}: completed`));
  }, 300_000);

  it('optimize --wait exits non-zero when the submission is stale; experiment --records prints the log, evaluations and reflections', async () => {
    const skill = await seedManagedSkill(h.store);
    const experimentId = uniqueName('stale-cli');
    const request = weatherRequest(h.evaluatorQueue, weatherDataset(), {
      experimentId,
      scope: skill.scope,
      skillId: skill.skillId,
      parentRevisionId: skill.revisionId,
      submit: true,
      options: { maxIterations: 4 },
    });
    const running = cli('optimize', '--request', file('stale.json', request), '--wait', '--json');
    // Once the experiment searches (its prepare step refuses a stale parent up front), someone
    // publishes another revision: its parent is stale at submission.
    for (let i = 0; ; i++) {
      const view = await getExperiment({ client: h.main.client, store: h.store }, experimentId).catch(() => undefined);
      if (view && view.status !== 'running') throw new Error(`the experiment ended before its search: ${JSON.stringify(view)}`);
      if (view?.progress && view.progress.phase !== 'preparing') break;
      if (i > 600) throw new Error('the experiment never started its search');
      await new Promise((r) => setTimeout(r, 100));
    }
    await publishNewRevision(h.store, skill);
    const finished = await running;
    expect(finished.code, finished.stderr).toBe(1);
    const report = JSON.parse(finished.stdout) as ExperimentReport;
    expect(report.status).toBe('completed');
    expect(report.submission.status).toBe('stale_parent');

    const records = await cli('experiment', experimentId, '--records');
    expect(records.code).toBe(1); // same verdict as --wait
    expect(records.stdout).toContain(`iteration log (${report.iterations}):`);
    expect(records.stdout).toMatch(/^ {2}#0 \w+ of \S+: \w+/m);
    expect(records.stdout).toMatch(/^ {4}weather-validation-\d{3} {2}[01]\.\d{4}/m);
    expect(records.stdout).toMatch(/^reflections \([1-9]\d*\):\n {2}#\d+ \w+ from e-/m);

    const json = await cli('experiment', experimentId, '--records', '--json');
    const view = JSON.parse(json.stdout) as {
      report: ExperimentReport;
      records: { log: { iteration: number }[]; evaluations: { evaluations: unknown[] }[]; reflections: { iteration: number }[] };
    };
    expect(view.report.experimentId).toBe(experimentId);
    expect(view.records.log.map((l) => l.iteration)).toEqual(Array.from({ length: report.iterations }, (_, i) => i));
    expect(view.records.evaluations.every((b) => b.evaluations.length > 0)).toBe(true);
    expect(view.records.reflections.length).toBeGreaterThan(0);
  });
});
