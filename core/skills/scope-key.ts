import type { Scope } from '../schemas/scope';
import { shortHash } from './hash';
import { HASHED_SEGMENT_PREFIX, ID_SEGMENT_SOURCE, SAFE_SEGMENT_SOURCE, SCOPE_KEY_PATTERN } from './segment-patterns';

export { HASHED_SEGMENT_PREFIX, SCOPE_KEY_PATTERN };

const SAFE_SEGMENT = new RegExp(`^${SAFE_SEGMENT_SOURCE}$`);
const MAX_SKILL_ID_LENGTH = 64;
const ID_SEGMENT = new RegExp(`^${ID_SEGMENT_SOURCE}$`);

/**
 * One safe storage/workflow-id segment for an identifier the product derived itself
 * (skill, revision, event, record ids). Safe ids are kept; anything else (traversal,
 * slashes, control characters, unicode, empty, too long) becomes
 * `id-{16 hex of sha256(id)}`, which is itself safe, so the mapping is idempotent — and
 * therefore not one-to-one: an id spelled like a hash keeps it. Ids chosen outside the
 * product (apps, users, sessions, segments, experiments) go through idSegment.
 */
export function safeSegment(id: string): string {
  if (SAFE_SEGMENT.test(id)) return id;
  return `${HASHED_SEGMENT_PREFIX}${shortHash(id)}`;
}

export function isSafeSegment(id: string): boolean {
  return SAFE_SEGMENT.test(id);
}

/**
 * The one-to-one segment of an identifier chosen outside the product (app, user, session,
 * segment and experiment ids): a safe id is kept verbatim unless it starts with `id-`;
 * every other id, those included, becomes `id-{16 hex of sha256(UTF-8 id)}` over its full
 * length. A verbatim segment never starts with `id-` and a hashed one always does, so two
 * ids share a segment only if their hashes collide (docs/security.md).
 */
export function idSegment(id: string): string {
  return SAFE_SEGMENT.test(id) && !id.startsWith(HASHED_SEGMENT_PREFIX) ? id : `${HASHED_SEGMENT_PREFIX}${shortHash(id)}`;
}

export function isIdSegment(segment: string): boolean {
  return ID_SEGMENT.test(segment);
}

export function isScopeKey(key: string): boolean {
  return SCOPE_KEY_PATTERN.test(key);
}

export class ScopeError extends Error {
  override name = 'ScopeError';
}

/** `global`, `apps/{app}` or `users/{app}/{user}`, every identifier passed through idSegment. */
export function scopeKey(scope: Scope): string {
  switch (scope.mode) {
    case 'none':
      return 'global';
    case 'app':
      return `apps/${idSegment(requireId(scope.app, 'app', scope.mode))}`;
    case 'user':
      return `users/${idSegment(requireId(scope.app, 'app', scope.mode))}/${idSegment(requireId(scope.user, 'user', scope.mode))}`;
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
