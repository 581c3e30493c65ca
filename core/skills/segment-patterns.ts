/**
 * The shapes of storage-key segments, as patterns: what `safeSegment` keeps, what `idSegment`
 * produces and what `scopeKey` builds from them (core/skills/scope-key.ts). A leaf, so the
 * schemas that validate keys and the functions that make them share one definition.
 */

/**
 * Identifiers kept verbatim as one storage-key segment: ASCII letters, digits,
 * `.`, `_`, `-`, starting with a letter or digit (so never `.`/`..` or a
 * hidden name), at most 64 characters. Everything else is replaced.
 */
export const SAFE_SEGMENT_SOURCE = '[A-Za-z0-9][A-Za-z0-9._-]{0,63}';

/** Hashed segments start with this; idSegment never keeps an id that does verbatim. */
export const HASHED_SEGMENT_PREFIX = 'id-';
const HASHED_SEGMENT_SOURCE = 'id-[0-9a-f]{16}';
/** What idSegment produces: a safe id not starting with `id-`, or `id-{16 hex}`. */
export const ID_SEGMENT_SOURCE = `(?:(?!id-)${SAFE_SEGMENT_SOURCE}|${HASHED_SEGMENT_SOURCE})`;

/** A key scopeKey() produces: `global`, `apps/{app}` or `users/{app}/{user}`, each id an idSegment. */
export const SCOPE_KEY_PATTERN = new RegExp(`^(?:global|apps/${ID_SEGMENT_SOURCE}|users/${ID_SEGMENT_SOURCE}/${ID_SEGMENT_SOURCE})$`);
