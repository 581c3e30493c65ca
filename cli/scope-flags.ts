import type { Scope, ScopeMode } from '../core/schemas/scope';
import { scopeKey } from '../core/skills/scope-key';
import { flag, UsageError, type ParsedArgs } from './args';

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
