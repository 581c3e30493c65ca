import type { Scope, ScopeMode } from '../core/schemas/scope';
import { scopeKey } from '../core/skills/scope-key';
import type { OptionSpec } from '../runtime/command-line';
import { flag, UsageError, type ParsedArgs } from './args';

/** The options of every command that works on one scope (read by scopeFromFlags). */
export const SCOPE_OPTIONS = {
  app: { value: 'A', description: 'the application' },
  user: { value: 'U', description: 'the user (with --app)' },
  scope: { value: 'MODE', choices: ['none', 'app', 'user'], description: 'the scope; default: user with --user, app with --app, else none (global)' },
} as const satisfies Record<string, OptionSpec>;

/**
 * --scope none|app|user with --app/--user. Without --scope: user if --user is given,
 * app if --app is given, else none (global).
 */
export function scopeFromFlags(args: ParsedArgs): Scope {
  const app = flag(args, 'app');
  const user = flag(args, 'user');
  const given = flag(args, 'scope');
  if (given !== undefined && !['none', 'app', 'user'].includes(given)) throw new UsageError(`--scope must be none, app or user, got "${given}"`);
  const mode = (given as ScopeMode | undefined) ?? (user ? 'user' : app ? 'app' : 'none');
  if (mode !== 'none' && !app) throw new UsageError(`--scope ${mode} needs --app`);
  if (mode === 'user' && !user) throw new UsageError('--scope user needs --user');
  return { mode, app: mode === 'none' ? undefined : app, user: mode === 'user' ? user : undefined };
}

export function scopeKeyFromFlags(args: ParsedArgs): string {
  return scopeKey(scopeFromFlags(args));
}
