import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/commands';
import { SCHEDULE_OVERLAP_POLICIES } from '../../cli/commands/optimize';
import { OVERLAP_POLICIES } from '../../client/schedules';
import { completionScript, SHELLS } from '../../cli/completion';
import { parseCommandLine, usageLine, usageMessage, type CommandSpec } from '../../runtime/command-line';

/** Parses like `evolution`, capturing what it prints. */
function parse(argv: string[], width = 80, commands: Record<string, CommandSpec> = COMMANDS) {
  let out = '';
  let err = '';
  const line = parseCommandLine('evolution', commands, argv, { out: (t) => void (out += t), err: (t) => void (err += t), width }, { summary: 'test', version: '9.9.9' });
  return { line, out, err };
}

describe('the command line (runtime/command-line.ts over the command table)', () => {
  it('parses declared flags and arguments into what the commands read', () => {
    const { line } = parse(['learn', '--app', 'a', '--user=u', '--session', 's', '--events', 'f.json', '--score', '-0.5', '--wait', '--json']);
    expect(line).toEqual({
      run: 'learn',
      args: {
        positionals: [],
        flags: new Map<string, string | true>([
          ['app', 'a'],
          ['user', 'u'],
          ['session', 's'],
          ['events', 'f.json'],
          ['score', '-0.5'],
          ['wait', true],
          ['json', true],
        ]),
      },
    });
    expect(parse(['show', 'rev-1']).line).toEqual({ run: 'show', args: { positionals: ['rev-1'], flags: new Map([]) } });
  });

  it('refuses an unknown flag, naming it and suggesting the closest one', () => {
    const { line, err, out } = parse(['learn', '--app', 'a', '--wiat']);
    expect(line).toEqual({ exit: 2 });
    expect(out).toBe('');
    expect(err).toContain("evolution learn: unknown option '--wiat' (did you mean --wait?)");
    expect(parse(['experiment', 'x', '--record']).err).toContain("unknown option '--record' (did you mean --records?)");
    expect(parse(['skills', '--sope', 'app']).err).toContain('(did you mean --scope?)');
  });

  it('refuses a missing value, at the end or where a flag follows', () => {
    expect(parse(['skills', '--app']).err).toContain('evolution skills: --app needs a value (A)');
    const followed = parse(['skills', '--app', '--json']);
    expect(followed.line).toEqual({ exit: 2 });
    expect(followed.err).toContain('evolution skills: --app needs a value (got the flag --json; write --app=--json if you mean it)');
  });

  it('refuses a missing required option, a bad number, a bad choice, excess and missing arguments', () => {
    expect(parse(['learn', '--app', 'a']).err).toMatch(/^evolution learn: --user U, --session S and --events FILE are required\n/);
    expect(parse(['learn', '--app', 'a', '--user', 'u', '--session', 's']).err).toMatch(/^evolution learn: --events FILE is required\n/);
    expect(parse(['jobs', '--limit', 'ten']).err).toContain('--limit must be a number');
    expect(parse(['skills', '--scope', 'team']).err).toContain('--scope must be one of none, app, user, not "team"');
    expect(parse(['infra', 'up', '--only', 's3,db']).err).toContain('--only takes s3, temporal, model (comma-separated), not "db"');
    expect(parse(['show', 'a', 'b']).err).toContain("too many arguments for 'show'");
    expect(parse(['show']).err).toContain("missing required argument 'REVISION_ID'");
    expect(parse(['schedule', 'crate']).err).toContain("'crate' is invalid for argument 'ACTION'");
    for (const argv of [['skills', '--app'], ['show'], ['jobs', '--limit', 'x']]) expect(parse(argv).line).toEqual({ exit: 2 });
  });

  it('suggests the closest command for an unknown one', () => {
    const { line, err } = parse(['lern']);
    expect(line).toEqual({ exit: 2 });
    expect(err).toContain("evolution: unknown command 'lern' (did you mean learn?)");
  });

  it('--help of every command prints its usage and options, exits 0, and fits 80 columns', () => {
    for (const [name, spec] of Object.entries(COMMANDS)) {
      for (const argv of [
        [name, '--help'],
        [name, '-h'],
        ['help', name],
      ]) {
        const { line, out, err } = parse(argv);
        expect(line, name).toEqual({ exit: 0 });
        expect(err).toBe('');
        expect(out.replace(/\n\s+/g, ' ')).toContain(`Usage: ${usageLine('evolution', name, spec)}`);
        expect(out).toContain(spec.summary.split(' ').slice(0, 3).join(' '));
        for (const long of Object.keys(spec.options ?? {})) expect(out, `${name} --${long}`).toContain(`--${long}`);
        const wide = out.split('\n').filter((l) => l.length > 80);
        expect(wide, `${name}: lines over 80 columns`).toEqual([]);
      }
    }
  });

  it('the overview lists every command, wrapped to the width it is given', () => {
    const narrow = parse(['--help'], 80);
    expect(narrow.line).toEqual({ exit: 0 });
    for (const name of Object.keys(COMMANDS)) expect(narrow.out).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(Math.max(...narrow.out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
    const wide = parse(['--help'], 160);
    expect(Math.max(...wide.out.split('\n').map((l) => l.length))).toBeGreaterThan(80);
    expect(Math.max(...wide.out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(160);
    // A bare `evolution` shows the overview on stderr, as a usage error.
    const bare = parse([]);
    expect(bare.line).toEqual({ exit: 2 });
    expect(bare.err).toContain('Usage: evolution <command> [options]');
  });

  it('--version prints the version', () => {
    expect(parse(['--version'])).toEqual({ line: { exit: 0 }, out: '9.9.9\n', err: '' });
  });

  it("commander's messages read as ours", () => {
    expect(usageMessage("error: option '--app <A>' argument missing")).toBe('--app needs a value (A)');
    expect(usageMessage("error: unknown option '--wiat'\n(Did you mean --wait?)")).toBe("unknown option '--wiat' (did you mean --wait?)");
  });
});

describe('the command table', () => {
  it('declares every flag its commands read (an undeclared one would be refused as unknown)', () => {
    const dir = join(__dirname, '..', '..', 'cli', 'commands');
    const files = new Map<string, string[]>(); // file -> commands it defines
    for (const name of Object.keys(COMMANDS)) {
      const file = readdirSync(dir)
        .map((f) => f.replace(/\.ts$/, ''))
        .find((f) => readFileSync(join(dir, `${f}.ts`), 'utf8').includes(`${/^[\w]+$/.test(name) ? name : `'${name}'`}: {`));
      if (file) files.set(file, [...(files.get(file) ?? []), name]);
    }
    expect([...files.values()].flat().length).toBeGreaterThan(15);
    for (const [file, names] of files) {
      const source = readFileSync(join(dir, `${file}.ts`), 'utf8');
      const read = [...source.matchAll(/(?:[fF]lag\(\w+(?:\.args)?, '([\w-]+)'\)|flags\.(?:has|get)\('([\w-]+)'\))/g)].map((m) => m[1] ?? m[2]!);
      const declared = new Set(['json', ...names.flatMap((n) => Object.keys(COMMANDS[n]!.options ?? {}))]);
      expect(
        read.filter((f) => !declared.has(f)),
        `${file}.ts`,
      ).toEqual([]);
    }
  });

  it("schedule's overlap choices are the client's", () => {
    expect([...SCHEDULE_OVERLAP_POLICIES]).toEqual([...OVERLAP_POLICIES]);
  });
});

describe('shell completion (cli/completion.ts)', () => {
  it('both scripts know every command, option and choice of the table', () => {
    for (const shell of SHELLS) {
      const script = completionScript(shell, 'evolution', COMMANDS);
      for (const [name, spec] of Object.entries(COMMANDS)) {
        expect(script, `${shell}: ${name}`).toMatch(new RegExp(`^ {4}'?${name}[):]`, 'm'));
        for (const [long, o] of Object.entries(spec.options ?? {})) {
          expect(script, `${shell}: ${name} --${long}`).toContain(`--${long}`);
          for (const choice of o.choices ?? []) expect(script).toContain(choice);
        }
      }
    }
  });
});
