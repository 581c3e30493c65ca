/**
 * The CLI's answer reaches a pipe whole, however large, before the process exits; a reader
 * that stops early (`| head -c 10`) ends it quietly with a non-zero status. Runs the real
 * CLI (bin/evolution.js) as a child process with its stdout a pipe.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvolutionConfig } from '../../core';
import { scopeKey } from '../../core/skills/scope-key';
import { createSkillStore } from '../../storage';
import { realServices, uniqueName } from '../support/infra';

const REPO = join(__dirname, '..', '..');
const SKILLS = 6_000;

let config: EvolutionConfig;
let app: string;
beforeAll(async () => {
  config = await realServices(['s3']);
  app = uniqueName('pipes');
  // Thousands of published skills in one scope, written as the scope-index workflow writes
  // its index (one conditional write): `skills` lists the index, so this is all it reads.
  const store = createSkillStore(config.s3);
  const description = `Use when the nightly job of this team fails again; ${'check the logs, the retries and the metrics before anything else. '.repeat(3)}`;
  await store.applyScopeIndexChanges(
    scopeKey({ mode: 'app', app }),
    Array.from({ length: SKILLS }, (_, i) => ({
      skillId: `sk-pipes-${i}`,
      seq: 1,
      revisionId: `r-pipes-${i}`,
      entry: { name: `nightly job triage ${i}`, description, managed: true },
    })),
  );
}, 120_000);

function env(): NodeJS.ProcessEnv {
  return { ...process.env, S3_ENDPOINT: config.s3.endpoint, S3_BUCKET: config.s3.bucket };
}

/** Runs `command` in bash (stdout and stderr pipes to this process); resolves with both and the exit status. */
function sh(command: string): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd: REPO, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
  });
}

const CLI = `"${process.execPath}" bin/evolution.js`;

describe('CLI output into a pipe', () => {
  it('skills --json of a scope with thousands of skills arrives whole (megabytes) and parses', async () => {
    const { code, stdout, stderr } = await sh(`${CLI} skills --app ${app} --json`);
    expect(code, stderr).toBe(0);
    expect(stdout.length).toBeGreaterThan(2_000_000);
    const skills = JSON.parse(stdout.toString('utf8')) as { name: string }[];
    expect(skills).toHaveLength(SKILLS);
    expect(new Set(skills.map((s) => s.name)).size).toBe(SKILLS);
  }, 120_000);

  it('the same through python, as a script would read it', async () => {
    const { code, stdout, stderr } = await sh(`set -o pipefail; ${CLI} skills --app ${app} --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'`);
    expect(code, stderr).toBe(0);
    expect(stdout.toString().trim()).toBe(String(SKILLS));
  }, 120_000);

  it('a reader that stops after 10 bytes ends the command quietly with a non-zero status', async () => {
    const { code, stdout, stderr } = await sh(`${CLI} skills --app ${app} --json | head -c 10; exit "\${PIPESTATUS[0]}"`);
    expect(stdout.toString()).toBe('[\n  {\n    ');
    expect(code).not.toBe(0);
    expect(code).toBe(141); // what a shell reports for a writer ended by SIGPIPE
    expect(stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
  }, 120_000);
});
