/**
 * The one command-line parser of our programs (`evolution …` and `tsx infra/cli.ts …`), on
 * commander: each command is declared once (arguments, options, summary) and the same table
 * gives strict parsing, per-command help wrapped to the terminal, suggestions for typos and
 * shell completion (cli/completion.ts).
 */
import { Argument, Command as Program, CommanderError, Help, InvalidArgumentError, Option } from 'commander';

export interface OptionSpec {
  /** What the value is called in help (`--app A`); absent: a switch that takes no value. */
  value?: string;
  description: string;
  /** The only values accepted (and completed). */
  choices?: readonly string[];
  /** A comma-separated list (each item one of `choices`, when given). */
  list?: boolean;
  /** The value must be a finite number. */
  number?: boolean;
  /** The value names a file: the shell completes paths. */
  file?: boolean;
  /** Refused when absent. Leave false when only some forms of a command need it. */
  required?: boolean;
}

export interface ArgumentSpec {
  name: string;
  description?: string;
  optional?: boolean;
  choices?: readonly string[];
  file?: boolean;
}

export interface CommandSpec {
  summary: string;
  arguments?: readonly ArgumentSpec[];
  /** By long name without the dashes. Every command also takes --json and --help. */
  options?: Readonly<Record<string, OptionSpec>>;
}

/** A command line as the command reads it: positionals in order, flags by long name. */
export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

/** A command line that cannot mean anything (exit status 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const JSON_OPTION: OptionSpec = { description: 'print the answer as JSON' };

export interface CommandLineIo {
  out(text: string): void;
  err(text: string): void;
  /** Help is wrapped to this many columns. */
  width: number;
}

/** stdout and stderr; help as wide as the terminal, 80 columns when stdout is not one. */
export function processIo(): CommandLineIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    width: process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : 80,
  };
}

/** What a command line asks for: run one command, or exit now (help, version, usage error: already printed). */
export type CommandLine = { run: string; args: ParsedArgs } | { exit: number };

/** `--app A --user U` : the placeholder form of an option, as in usage lines. */
const optionTerm = (name: string, o: OptionSpec) => `--${name}${o.value ? ` ${o.value}` : ''}`;
const argumentTerm = (a: ArgumentSpec) => (a.optional ? `[${a.name}]` : a.name);

/** The synopsis of a command: its arguments and required options, then `[options]`. */
export function usageLine(program: string, name: string, spec: CommandSpec): string {
  const required = Object.entries(spec.options ?? {}).filter(([, o]) => o.required);
  return [program, name, ...(spec.arguments ?? []).map(argumentTerm), ...required.map(([n, o]) => optionTerm(n, o)), '[options]'].join(' ');
}

/** A flag-looking value (`--app --user U`) is a forgotten value, not a value. */
function valueOf(name: string, o: OptionSpec) {
  return (value: string) => {
    if (/^--[a-z][\w-]*$/i.test(value)) throw new InvalidArgumentError(`--${name} needs a value (got the flag ${value}; write --${name}=${value} if you mean it)`);
    if (o.number && (value.trim() === '' || !Number.isFinite(Number(value)))) throw new InvalidArgumentError(`--${name} must be a number`);
    const items = o.list ? value.split(',').filter((item) => item !== '') : [value];
    const wrong = o.choices && items.find((item) => !o.choices!.includes(item));
    if (wrong !== undefined)
      throw new InvalidArgumentError(`--${name} ${o.list ? 'takes' : 'must be one of'} ${o.choices!.join(', ')}${o.list ? ' (comma-separated)' : ''}, not "${wrong}"`);
    return value;
  };
}

function addCommand(parent: Program, program: string, name: string, spec: CommandSpec, chosen: (run: string, args: ParsedArgs) => void): Program {
  const cmd = parent
    .command(name)
    .description(spec.summary)
    .usage(usageLine(program, name, spec).split(' ').slice(2).join(' '));
  for (const a of spec.arguments ?? []) {
    const argument = new Argument(a.optional ? `[${a.name}]` : `<${a.name}>`, a.description);
    if (a.choices) argument.choices(a.choices);
    cmd.addArgument(argument);
  }
  const options: [string, Option][] = [];
  for (const [long, o] of Object.entries({ ...spec.options, json: JSON_OPTION })) {
    const option = new Option(`--${long}${o.value ? ` <${o.value}>` : ''}`, o.description + (o.choices ? ` (one of: ${o.choices.join(', ')})` : ''));
    if (o.value) option.argParser(valueOf(long, o));
    cmd.addOption(option);
    options.push([long, option]);
  }
  cmd.action(() => {
    const values = cmd.opts();
    const flags = new Map<string, string | true>();
    for (const [long, option] of options) {
      const v = values[option.attributeName()] as string | boolean | undefined;
      if (v !== undefined && v !== false) flags.set(long, v);
    }
    // Checked here, after commander's own checks, so that a misspelt flag is named first.
    const missing = Object.entries(spec.options ?? {}).filter(([long, o]) => o.required && !flags.has(long));
    if (missing.length) {
      const terms = missing.map(([long, o]) => optionTerm(long, o));
      cmd.error(`${[terms.slice(0, -1).join(', '), terms.at(-1)].filter(Boolean).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required`, { exitCode: 2 });
    }
    chosen(name, { positionals: [...cmd.args], flags });
  });
  return cmd;
}

/** Help in our shape: argument terms as in usage lines, wrapped to the width. */
function configureHelp(cmd: Program): void {
  cmd.configureHelp({
    sortSubcommands: false,
    sortOptions: false,
    subcommandTerm: (sub) => [sub.name(), ...sub.registeredArguments.map((a) => (a.required ? a.name() : `[${a.name()}]`))].join(' '),
    argumentDescription: (a) => a.description + (a.argChoices ? `${a.description ? ' ' : ''}(one of: ${a.argChoices.join(', ')})` : ''),
    commandUsage(this: Help, c: Program) {
      return this.boxWrap(Help.prototype.commandUsage.call(this, c), (this.helpWidth ?? 80) - 'Usage: '.length);
    },
  });
}

/** Commander's error messages in our words: `evolution learn: --app needs a value (A)`. */
export function usageMessage(text: string): string {
  return text
    .replace(/^error: /, '')
    .replace(/^option '(--[\w-]+) <([^>]+)>' argument missing/, '$1 needs a value ($2)')
    .replace(/^option '--[\w-]+ <[^>]+>' argument '.*' is invalid\. /s, '')
    .replace(/\n\(Did you mean (.*)\?\)/, ' (did you mean $1?)');
}

function output(prefix: string, io: CommandLineIo) {
  return {
    writeOut: io.out,
    writeErr: io.err,
    getOutHelpWidth: () => io.width,
    getErrHelpWidth: () => io.width,
    outputError: (text: string, write: (s: string) => void) => write(`${prefix}: ${usageMessage(text)}`),
  };
}

/**
 * Parses `argv` against `commands`. Help (`--help`, `-h`, `help COMMAND`), `--version` and
 * usage errors (unknown or misspelt flags and commands, missing values, bad choices,
 * excess arguments) are printed here and answered with an exit status; help and version
 * touch nothing else.
 */
export function parseCommandLine(
  program: string,
  commands: Readonly<Record<string, CommandSpec>>,
  argv: readonly string[],
  io: CommandLineIo,
  about: { summary: string; version?: string },
): CommandLine {
  let chosen: { run: string; args: ParsedArgs } | undefined;
  const root = new Program(program).description(about.summary).usage('<command> [options]');
  root.configureOutput(output(program, io));
  root.exitOverride();
  if (about.version) root.version(about.version, '--version', 'print the version');
  root.helpOption('-h, --help', 'show help');
  root.helpCommand('help [command]', 'show the help of a command');
  configureHelp(root);
  for (const [name, spec] of Object.entries(commands)) {
    const cmd = addCommand(root, program, name, spec, (run, args) => (chosen = { run, args }));
    cmd.configureOutput(output(`${program} ${name}`, io));
    cmd.helpOption('-h, --help', 'show this help');
    cmd.showHelpAfterError(`(${program} ${name} --help lists its arguments and options)`);
    configureHelp(cmd);
  }
  try {
    root.parse(argv, { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    // Help asked for, or the version: 0. Anything else is a usage error, including a bare `evolution`.
    return { exit: e.exitCode === 0 ? 0 : 2 };
  }
  return chosen ? chosen : { exit: 2 };
}
