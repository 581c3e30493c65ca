import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../core/errors';

/**
 * Who may use the console: `EVOLUTION_CONSOLE_USERS` names a JSON file of users, each
 * with a role, the scopes they may see and the SHA-256 of their token (the token itself is
 * never stored). A scope pattern is a scope key (`global`, `apps/shop`, `users/shop/ana`),
 * or ends in a whole `*` segment matching every key below it (`apps/*`, `users/shop/*`),
 * or is `*` alone (everything). Patterns match whole segments: `apps/shop*` is refused,
 * never read as a prefix that would also match `apps/shopping`.
 */

export const ROLES = ['viewer', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const ScopePatternSchema = z
  .string()
  .trim()
  .min(1, 'a scope pattern must not be empty')
  .refine(
    (p) => !p.includes('*') || p === '*' || (p.endsWith('/*') && !p.slice(0, -1).includes('*')),
    'a scope pattern matches whole segments: a scope key, a key prefix ending in "/*" (apps/*, users/shop/*), or "*" alone',
  );

export const ConsoleUserSchema = z.object({
  name: z.string().trim().min(1, 'a user needs a name').max(200),
  role: z.enum(ROLES),
  scopes: z.array(ScopePatternSchema),
});
export type ConsoleUser = z.infer<typeof ConsoleUserSchema>;

export const UsersFileSchema = z
  .array(ConsoleUserSchema.extend({ tokenSha256: z.string().regex(/^[0-9a-fA-F]{64}$/, 'tokenSha256 must be 64 hex digits (sha256 of the token)') }))
  .superRefine((users, ctx) => {
    const seen = new Set<string>();
    users.forEach((u, i) => {
      if (seen.has(u.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `user name "${u.name}" appears twice` });
      seen.add(u.name);
    });
  });
export type StoredUser = z.infer<typeof UsersFileSchema>[number];

export function tokenSha256(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function parseUsers(value: unknown, where = 'users file'): StoredUser[] {
  const r = UsersFileSchema.safeParse(value);
  if (!r.success) throw new InputError(`invalid ${where}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return r.data;
}

export function loadUsersFile(path: string): StoredUser[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read the console users file ${path} (EVOLUTION_CONSOLE_USERS): ${(e as Error).message}`);
  }
  try {
    return parseUsers(JSON.parse(text), `console users file ${path}`);
  } catch (e) {
    if (e instanceof SyntaxError) throw new InputError(`console users file ${path} is not JSON: ${e.message}`);
    throw e;
  }
}

/**
 * The user a token belongs to. Every stored hash is compared in constant time, and all of
 * them are compared whatever matched, so timing tells nothing about the token or the users.
 */
export function userForToken(users: readonly StoredUser[], token: string): ConsoleUser | undefined {
  const digest = createHash('sha256').update(token, 'utf8').digest();
  let found: StoredUser | undefined;
  for (const u of users) {
    const stored = Buffer.from(u.tokenSha256, 'hex');
    if (timingSafeEqual(stored, digest) && !found) found = u;
  }
  return found && { name: found.name, role: found.role, scopes: found.scopes };
}

/** `apps/*` matches `apps/shop` (whole segments below `apps/`), never `appsx/…`; `*` matches every key. */
export function scopeMatches(pattern: string, scopeKey: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('/*')) return scopeKey.startsWith(pattern.slice(0, -1));
  return pattern === scopeKey;
}

export function canSee(user: ConsoleUser, scopeKey: string): boolean {
  return user.scopes.some((p) => scopeMatches(p, scopeKey));
}

/** Approvers and admins decide and roll back; viewers only read. */
export function canAct(user: ConsoleUser): boolean {
  return user.role === 'approver' || user.role === 'admin';
}
