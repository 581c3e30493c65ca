/**
 * The CLI by convention, run as a user runs it (bin/evolution.js as a child process, stdout a
 * pipe, so not a terminal): help that touches no configuration or service, strict flags
 * with suggestions, --version, shell completion, and infra/cli.ts on the same parser.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(__dirname, '..', '..');
// A configuration every command refuses when it loads it: help must not get that far.
const BROKEN_CONFIG = { EVOLUTION_PAYLOAD_KEYS: 'not-a-key', TEMPORAL_ADDRESS: '127.0.0.1:1', S3_ENDPOINT: 'http://127.0.0.1:1' };

function run(file: string[], args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file[0]!, [...file.slice(1), ...args], { cwd: REPO, env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const evolution = (args: string[], env?: NodeJS.ProcessEnv) => run([process.execPath, join(REPO, 'bin', 'evolution.js')], args, env);

describe('evolution COMMAND --help', () => {
  it('learn, console, codec-server, worker: their usage, exit 0, nothing loaded or started', async () => {
    const refused = await evolution(['skills'], BROKEN_CONFIG);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('EVOLUTION_PAYLOAD_KEYS');
    for (const [name, synopsis] of [
      ['learn', 'Usage: evolution learn --app A --user U --session S --events FILE [options]'],
      ['console', 'Usage: evolution console [options]'],
      ['codec-server', 'Usage: evolution codec-server [options]'],
      ['worker', 'Usage: evolution worker [options]'],
    ]) {
      const { code, stdout, stderr } = await evolution([name!, '--help'], BROKEN_CONFIG);
      expect(code, `${name}: ${stderr}`).toBe(0);
      expect(stderr).toBe('');
      expect(stdout.startsWith(`${synopsis}\n`), stdout).toBe(true);
      // Not a terminal: wrapped to 80 columns.
      expect(stdout.split('\n').filter((l) => l.length > 80)).toEqual([]);
    }
  }, 180_000);

  it('a misspelt flag is a usage error naming it and the closest one; a missing value too', async () => {
    const wiat = await evolution(['learn', '--app', 'a', '--user', 'u', '--session', 's', '--events', 'x.json', '--wiat']);
    expect(wiat.code).toBe(2);
    expect(wiat.stderr).toContain("evolution learn: unknown option '--wiat' (did you mean --wait?)");
    const missing = await evolution(['skills', '--app']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('evolution skills: --app needs a value');
  }, 120_000);

  it('--version prints the package version', async () => {
    const { code, stdout } = await evolution(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe((JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version);
  }, 120_000);

  it('tsx infra/cli.ts parses with the same parser as evolution infra', async () => {
    const tsx = [process.execPath, join(REPO, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(REPO, 'infra', 'cli.ts')];
    const typo = await run(tsx, ['status', '--onyl', 's3']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("evolution infra: unknown option '--onyl' (did you mean --only?)");
    const help = await run(tsx, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: evolution infra ACTION [options]');
  }, 120_000);
});

describe('evolution completion', () => {
  it('bash: the generated script completes commands, options, choices and files', async () => {
    const { code, stdout } = await evolution(['completion', 'bash']);
    expect(code).toBe(0);
    const complete = (words: string[]) => {
      const script = `${stdout}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _evolution_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const r = spawnSync('bash', ['-c', script], { cwd: REPO, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.split('\n').filter(Boolean);
    };
    expect(complete(['evolution', 'lea'])).toEqual(['learn']);
    expect(complete(['evolution', 'learn', '--wa'])).toEqual(['--wait']);
    expect(complete(['evolution', 'skills', '--scope', ''])).toEqual(['none', 'app', 'user']);
    expect(complete(['evolution', 'schedule', '--note', 'x', ''])).toEqual(['create', 'list', 'delete']);
    expect(complete(['evolution', 'completion', ''])).toEqual(['bash', 'zsh']);
    expect(complete(['evolution', 'dataset', 'put', 'package.js'])).toEqual(['package.json']);
  }, 120_000);

  // zsh is not part of the machine's base image: checked where it is installed (apt-get install zsh).
  const zsh = spawnSync('zsh', ['--version']).status === 0;
  it.skipIf(!zsh)(
    'zsh: the generated script parses and registers its completion function with compinit',
    async () => {
      const { code, stdout } = await evolution(['completion', 'zsh']);
      expect(code).toBe(0);
      expect(stdout.startsWith('#compdef evolution\n')).toBe(true);
      expect(spawnSync('zsh', ['-n'], { input: stdout }).status).toBe(0);
      const r = spawnSync('zsh', ['-f', '-c', 'autoload -U compinit; compinit -u -D; eval "$(cat)"; print -r -- ${_comps[evolution]}'], { input: stdout, encoding: 'utf8' });
      expect(r.stdout.trim(), r.stderr).toBe('_evolution_complete');
    },
    120_000,
  );
});

describe('evolution without a build', () => {
  // bin/evolution.js runs the TypeScript sources through tsx when dist/ cannot be built (no
  // dev tools, a failed build, EVOLUTION_NO_BUILD=1). The CLI loads its commands' modules with
  // import(): on Node 26 those went through Node's own loader, which strips types but does not
  // resolve extensionless paths, so every such command failed with ERR_MODULE_NOT_FOUND (seen
  // in CI when a spurious rebuild made dist/ stale mid-run).
  it('a command that loads its services runs from the sources and answers in its own words', async () => {
    const r = await evolution(['approve', 'rev-x', '--reviewer', 'm'], { EVOLUTION_NO_BUILD: '1', TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(r.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
    expect(r.stderr).toContain('evolution approve: Temporal at 127.0.0.1:1 cannot be reached');
    expect(r.code).toBe(1);
  });
});
