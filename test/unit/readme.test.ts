import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/commands';

const ROOT = resolve(__dirname, '..', '..');
const README = join(ROOT, 'README.md');
const DOCS = [
  README,
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(ROOT, 'docs', f)),
];

/** `npx evolution NAME` / `evolution NAME` at the start of a command line or in backticks. */
function commandsNamed(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/(?:^|[`\s(])(?:npx |node bin\/evolution\.js )?evolution ([a-z][a-z-]*)/gm)) names.add(m[1]);
  return [...names];
}

/** Relative link targets of markdown links and images, without anchors. */
function linkTargets(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#'))
    .map((t) => t.split('#')[0]);
}

describe('the README and docs name only what exists', () => {
  it('every `evolution` command they show is one the CLI has', () => {
    const wrong = DOCS.flatMap((file) =>
      commandsNamed(readFileSync(file, 'utf8'))
        // prose such as "the evolution CLI" or "evolution workflows" is not a command
        .filter((name) => !['cli', 'workflows', 'workflow', 'on', 'is', 'loop'].includes(name))
        .filter((name) => !(name in COMMANDS) && !['help', 'completion'].includes(name))
        .map((name) => `${relative(ROOT, file)}: evolution ${name}`),
    );
    expect(wrong).toEqual([]);
  });

  it('the README shows the commands a newcomer needs', () => {
    const named = commandsNamed(readFileSync(README, 'utf8'));
    expect(named).toEqual(expect.arrayContaining(['infra', 'worker', 'learn', 'pending', 'approve', 'skills', 'rollback']));
  });

  it('every relative link points to a file or folder of the repository', () => {
    const broken = DOCS.flatMap((file) =>
      linkTargets(readFileSync(file, 'utf8'))
        .filter((target) => !existsSync(resolve(dirname(file), target)))
        .map((target) => `${relative(ROOT, file)}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("every EVOLUTION_ variable the CLI's help names is one docs/configuration.md documents", () => {
    const configuration = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
    const cli = join(ROOT, 'cli');
    const named = readdirSync(cli, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(join(cli, f), 'utf8').matchAll(/EVOLUTION_[A-Z0-9_]+/g)].map((m) => `${f}: ${m[0]}`));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((n) => !configuration.includes(n.split(': ')[1]!))).toEqual([]);
  });

  it('is short enough to read in ten minutes (under 250 lines)', () => {
    expect(readFileSync(README, 'utf8').split('\n').length).toBeLessThan(250);
  });
});
