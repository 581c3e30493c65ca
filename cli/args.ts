/** Minimal flag parsing: `--name value`, `--flag` (boolean), positionals in order. */
export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseArgs(argv: string[], booleanFlags: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (eq > 0) flags.set(name, a.slice(eq + 1));
    else if (booleanFlags.includes(name) || name === 'json' || name === 'wait' || i + 1 >= argv.length || argv[i + 1]!.startsWith('--')) flags.set(name, true);
    else flags.set(name, argv[++i]!);
  }
  return { positionals, flags };
}

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
