import { INPUT_LIMITS } from '../input-limits';
import { isScopeKey, scopeKey } from '../skills/scope-key';
import { isObject, numberField, objectField, oneOfField, stringField, type Problems } from './fields';

export const SCOPE_MODES = ['none', 'app', 'user'] as const;
const SHA256 = /^[0-9a-f]{64}$/;

/** A claim-checked session segment as workflows carry it (the shape of core's SegmentSchema). */
export function checkSegment(problems: Problems, path: string, v: unknown): void {
  const segment = objectField(problems, path, v);
  if (!segment) return;
  stringField(problems, `${path}.segmentId`, segment.segmentId, { maxLength: 512 });
  stringField(problems, `${path}.sessionId`, segment.sessionId, { maxLength: 512 });
  stringField(problems, `${path}.app`, segment.app, { maxLength: 512 });
  stringField(problems, `${path}.user`, segment.user, { maxLength: 512 });
  oneOfField(problems, `${path}.scopeMode`, segment.scopeMode, SCOPE_MODES);
  const key = stringField(problems, `${path}.scopeKey`, segment.scopeKey);
  if (key !== undefined && !isScopeKey(key))
    problems.push(`${path}.scopeKey: expected a scope key (global, apps/{app}, users/{app}/{user}), got ${JSON.stringify(key.slice(0, 100))}`);
  else if (key !== undefined) checkScopeKeyOfScope(problems, path, segment, key);
  numberField(problems, `${path}.eventCount`, segment.eventCount, { integer: true, min: 0, max: INPUT_LIMITS.maxEvents });
  const ref = objectField(problems, `${path}.payloadRef`, segment.payloadRef);
  if (ref) {
    if (typeof ref.sha256 !== 'string' || !SHA256.test(ref.sha256)) problems.push(`${path}.payloadRef.sha256: expected 64 lowercase hex characters`);
    numberField(problems, `${path}.payloadRef.bytes`, ref.bytes, { integer: true, min: 0, max: INPUT_LIMITS.maxPayloadBytes });
  }
  if (segment.outcome !== undefined && !isObject(segment.outcome)) objectField(problems, `${path}.outcome`, segment.outcome);
}

/**
 * The scope key must be the one its scope maps to: a platform still computing keys by an
 * older rule (or by hand) would otherwise write into another tenant's prefix.
 */
function checkScopeKeyOfScope(problems: Problems, path: string, segment: Record<string, unknown>, key: string): void {
  const { scopeMode: mode, app, user } = segment;
  if (!SCOPE_MODES.includes(mode as (typeof SCOPE_MODES)[number]) || typeof app !== 'string' || typeof user !== 'string') return;
  const scope = { mode: mode as (typeof SCOPE_MODES)[number], app, user };
  let expected: string;
  try {
    expected = scopeKey(scope);
  } catch {
    return; // a missing id is reported by its own field check
  }
  if (expected === key) return;
  const named =
    mode === 'none'
      ? 'mode none'
      : mode === 'app'
        ? `mode app, app ${JSON.stringify(app.slice(0, 100))}`
        : `mode user, app ${JSON.stringify(app.slice(0, 100))}, user ${JSON.stringify(user.slice(0, 100))}`;
  problems.push(`${path}.scopeKey: ${JSON.stringify(key)} is not the key of the segment's scope (${named}): expected ${JSON.stringify(expected)}`);
}
