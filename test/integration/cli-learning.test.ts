import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { infraEnv } from '../../infra';
import { learningJobProgressQuery } from '../../core/workflow-api/session';
import { REPO_ROOT } from '../../infra/paths';
import { uniqueName } from '../support/infra';
import { useMainWorker } from '../support/worker';

const run = promisify(execFile);
const fx = useMainWorker({ humanGate: 'create_only' });

/** Runs `npx evolution …` as a user would (bin/evolution.js), against the same worker. */
async function evolution(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...infraEnv(), EVOLUTION_TASK_QUEUE: fx.w.taskQueue, ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('evolution CLI (learning and approvals)', () => {
  it('learn --wait, pending, show, approve, skills; a second approval fails with a clear error', async () => {
    const app = uniqueName('cli');
    const learned = await evolution(['learn', '--app', app, '--user', 'u', '--session', 's1', '--events', 'examples/sessions/weather-report.json', '--wait', '--json']);
    expect(learned.code).toBe(0);
    const outcome = JSON.parse(learned.stdout).outcome;
    expect(outcome.status).toBe('reviewed');
    const revisionId: string = outcome.revisions[0].revisionId;
    expect(outcome.revisions[0].status).toBe('pending_approval');

    const pending = await evolution(['pending', '--app', app, '--json']);
    expect(JSON.parse(pending.stdout).map((r: { id: string }) => r.id)).toEqual([revisionId]);

    const shown = await evolution(['show', revisionId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('gates:');
    expect(shown.stdout).toMatch(/human\s+held: policy "create_only" holds new skills/);
    expect(shown.stdout).toContain('+++ candidate/SKILL.md');

    const approved = await evolution(['approve', revisionId, '--reviewer', 'maria', '--comment', 'ok']);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`${revisionId}: approved by maria; status now active`);
    const again = await evolution(['reject', revisionId, '--reviewer', 'bob']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`revision ${revisionId} is not waiting for approval: it is active by maria`);

    const skills = await evolution(['skills', '--app', app, '--json']);
    expect(JSON.parse(skills.stdout).map((s: { name: string }) => s.name)).toEqual(['multi-city-weather-report']);
    const skill = await evolution(['skill', 'multi-city-weather-report', '--app', app]);
    expect(skill.stdout).toContain('## Steps');

    // The job, as `jobs` lists it (one visibility query) and as `job ID` shows it.
    const jobId: string = JSON.parse(learned.stdout).jobWorkflowId;
    const jobs = await evolution(['jobs', '--app', app, '--json']);
    expect(jobs.code).toBe(0);
    expect(JSON.parse(jobs.stdout)).toEqual([expect.objectContaining({ jobId, workflowStatus: 'COMPLETED', outcome: expect.objectContaining({ status: 'reviewed' }) })]);
    const job = await evolution(['job', jobId]);
    expect(job.code).toBe(0);
    expect(job.stdout).toContain(`${jobId}: workflow COMPLETED`);
    expect(job.stdout).toContain(`${revisionId}  create multi-city-weather-report: pending_approval`);
    const quarantined = await evolution(['jobs', '--app', app, '--quarantined']);
    expect(quarantined.stdout).toContain('no quarantined deltas in apps/');
    const unknown = await evolution(['job', 'not-a-job']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not a learning job id: "not-a-job"');
  });

  it("learn --wait into a pipe: the job's steps as plain lines on stderr, the outcome on stdout", async () => {
    const app = uniqueName('cli-steps');
    const learned = await evolution(['learn', '--app', app, '--user', 'u', '--session', 's1', '--events', 'examples/sessions/weather-report.json', '--wait']);
    expect(learned.code, learned.stderr).toBe(0);
    const lines = learned.stderr.split('\n').filter((l) => l.startsWith('job '));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^job \S+: (waiting for a worker|(preparing|reviewing|planning|publishing|finishing) — .+)$/);
    expect(learned.stderr).not.toContain('\x1b['); // not a terminal: no spinner or line rewriting
    expect(learned.stderr).not.toContain('\r');
    expect(learned.stdout).toMatch(/^job \S+: reviewed — /);
    // What the lines are made of: the job's progress query, answered (by replay) after it finished too.
    const jobId = /^job (\S+):/.exec(learned.stdout)![1];
    expect(await fx.w.client.workflow.getHandle(jobId).query(learningJobProgressQuery)).toEqual({ step: 'publishing', revisionsDone: 0, revisions: 1 });
  }, 180_000);

  it('bad input: a malformed events file, a missing flag, an invalid configuration value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const bad = join(dir, 'events.json');
    writeFileSync(bad, JSON.stringify([{ role: 'robot', content: 'beep' }]));
    const malformed = await evolution(['learn', '--app', 'a', '--user', 'u', '--session', 's', '--events', bad]);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('invalid learning job request');
    expect(malformed.stderr).toContain('events[0].role');

    const missing = await evolution(['learn', '--user', 'u', '--session', 's', '--events', bad]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('evolution learn: --app A is required');

    const config = await evolution(['pending', '--app', 'a'], { EVOLUTION_MIN_TOOL_CALLS: 'four' });
    expect(config.code).toBe(1);
    expect(config.stderr).toContain('EVOLUTION_MIN_TOOL_CALLS="four": must be an integer');
  });
});
