import type { Scope } from '../schemas/scope';
import { shortHash } from './hash';

/**
 * Identifiers kept verbatim as one storage-key segment: ASCII letters, digits,
 * `.`, `_`, `-`, starting with a letter or digit (so never `.`/`..` or a
 * hidden name), at most 64 characters. Everything else is replaced.
 */
const SAFE_SEGMENT_SOURCE = '[A-Za-z0-9][A-Za-z0-9._-]{0,63}';
const SAFE_SEGMENT = new RegExp(`^${SAFE_SEGMENT_SOURCE}$`);
const MAX_SKILL_ID_LENGTH = 64;

/**
 * One safe storage/workflow-id segment for an untrusted identifier.
 * Safe ids are kept; anything else (traversal, slashes, control characters,
 * unicode, empty, too long) becomes `id-{16 hex of sha256(id)}`, which is
 * itself safe, so the mapping is idempotent.
 */
export function safeSegment(id: string): string {
  if (SAFE_SEGMENT.test(id)) return id;
  return `id-${shortHash(id)}`;
}

export function isSafeSegment(id: string): boolean {
  return SAFE_SEGMENT.test(id);
}

/** A key scopeKey() produces: `global`, `apps/{app}` or `users/{app}/{user}`, each id a safe segment. */
export const SCOPE_KEY_PATTERN = new RegExp(`^(?:global|apps/${SAFE_SEGMENT_SOURCE}|users/${SAFE_SEGMENT_SOURCE}/${SAFE_SEGMENT_SOURCE})$`);

export function isScopeKey(key: string): boolean {
  return SCOPE_KEY_PATTERN.test(key);
}

export class ScopeError extends Error {
  override name = 'ScopeError';
}

/** `global`, `apps/{app}` or `users/{app}/{user}`, every identifier passed through safeSegment. */
export function scopeKey(scope: Scope): string {
  switch (scope.mode) {
    case 'none':
      return 'global';
    case 'app':
      return `apps/${safeSegment(requireId(scope.app, 'app', scope.mode))}`;
    case 'user':
      return `users/${safeSegment(requireId(scope.app, 'app', scope.mode))}/${safeSegment(requireId(scope.user, 'user', scope.mode))}`;
    default:
      throw new ScopeError(`unknown scope mode ${JSON.stringify((scope as { mode: unknown }).mode)}`);
  }
}

function requireId(value: string | undefined, field: string, mode: string): string {
  if (value === undefined || value === '') throw new ScopeError(`scope mode "${mode}" needs a non-empty ${field}`);
  return value;
}

/**
 * A stable, readable skill id from a skill name: lowercase ASCII slug with
 * hyphens (`Weather - Multi-City` → `weather-multi-city`). Names that
 * normalize to the same slug are the same skill (the reference's canonical
 * name rule). A name with no ASCII letters or digits becomes `id-{hash}`;
 * a slug longer than 64 characters keeps its head and gains a hash suffix so
 * two long names never collide on a shared prefix.
 */
export function skillIdForName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug === '') return `id-${shortHash(name.trim())}`;
  if (slug.length <= MAX_SKILL_ID_LENGTH) return slug;
  const suffix = shortHash(slug);
  const head = slug.slice(0, MAX_SKILL_ID_LENGTH - suffix.length - 1).replace(/-+$/, '');
  return `${head}-${suffix}`;
}
