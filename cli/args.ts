import { UsageError, type ParsedArgs } from '../runtime/command-line';

export { UsageError, type ParsedArgs } from '../runtime/command-line';

// Reading what runtime/command-line.ts parsed: values are checked against the command's
// options there (known flag, value present, number, choice); these say what a command needs.

export function flag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

export function requiredFlag(args: ParsedArgs, name: string): string {
  const v = flag(args, name);
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function boolFlag(args: ParsedArgs, name: string): boolean {
  return args.flags.get(name) === true || args.flags.get(name) === 'true';
}

export function numberFlag(args: ParsedArgs, name: string): number | undefined {
  const v = flag(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${v}"`);
  return n;
}

export function positional(args: ParsedArgs, index: number, what: string): string {
  const v = args.positionals[index];
  if (!v) throw new UsageError(`missing ${what}`);
  return v;
}
