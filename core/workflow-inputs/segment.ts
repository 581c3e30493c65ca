import { isScopeKey } from '../skills/scope-key';
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
  numberField(problems, `${path}.eventCount`, segment.eventCount, { integer: true, min: 0 });
  const ref = objectField(problems, `${path}.payloadRef`, segment.payloadRef);
  if (ref) {
    if (typeof ref.sha256 !== 'string' || !SHA256.test(ref.sha256)) problems.push(`${path}.payloadRef.sha256: expected 64 lowercase hex characters`);
    numberField(problems, `${path}.payloadRef.bytes`, ref.bytes, { integer: true, min: 0 });
  }
  if (segment.outcome !== undefined && !isObject(segment.outcome)) objectField(problems, `${path}.outcome`, segment.outcome);
}
