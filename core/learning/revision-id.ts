import { shortHash } from '../skills/hash';
import { isSafeSegment, safeSegment } from '../skills/scope-key';

/**
 * Deterministic identifiers. A revision id is a function of the job that
 * produced it and the candidate's position in that job's (reconciled)
 * decision, so a retried activity or a replayed workflow names the same
 * revision again instead of minting a second one. Ids are safe as one S3 key
 * segment and inside Temporal workflow ids.
 */

/** `rev-{24 hex of sha256(jobId)}-{ordinal}`; ordinal is the candidate's 0-based position in the job. */
export function revisionIdFor(jobId: string, ordinal: number): string {
  if (jobId === '') throw new RangeError('jobId must not be empty');
  if (!Number.isInteger(ordinal) || ordinal < 0) throw new RangeError(`ordinal must be a non-negative integer, got ${ordinal}`);
  return `rev-${shortHash(jobId, 24)}-${ordinal}`;
}

const SCOPE_KEY = /^(global|apps\/[^/]+|users\/[^/]+\/[^/]+)$/;

/** True for keys produced by scopeKey(): `global`, `apps/{seg}`, `users/{seg}/{seg}` with safe segments. */
export function isScopeKey(key: string): boolean {
  return SCOPE_KEY.test(key) && key.split('/').slice(1).every(isSafeSegment);
}

function requireScopeKey(key: string): string {
  if (!isScopeKey(key)) throw new RangeError(`not a scope key: ${JSON.stringify(key)}`);
  return key;
}

/** The approval workflow of one revision: an approver needs nothing but the revision id. */
export function approvalWorkflowId(revisionId: string): string {
  return `approval/${safeSegment(revisionId)}`;
}

/** The per-session entity workflow that orders segments and owns the review cursor. */
export function sessionWorkflowId(scopeKey: string, sessionId: string): string {
  return `session/${requireScopeKey(scopeKey)}/${safeSegment(sessionId)}`;
}

/** One learning job per session segment, so a duplicate submission is deduplicated by Temporal. */
export function learningJobWorkflowId(scopeKey: string, sessionId: string, segmentId: string): string {
  return `learning/${requireScopeKey(scopeKey)}/${safeSegment(sessionId)}/${safeSegment(segmentId)}`;
}

/** The inverse of learningJobWorkflowId (undefined for any other id): where a job's outcome is stored. */
export function parseLearningJobWorkflowId(jobId: string): { scopeKey: string; sessionId: string; segmentId: string } | undefined {
  const parts = jobId.split('/');
  if (parts[0] !== 'learning' || parts.length < 4) return undefined;
  const scopeKey = parts.slice(1, -2).join('/');
  const [sessionId, segmentId] = parts.slice(-2);
  if (!isScopeKey(scopeKey) || !isSafeSegment(sessionId) || !isSafeSegment(segmentId)) return undefined;
  return { scopeKey, sessionId, segmentId };
}

/** The per-scope entity workflow that materializes the scope index and SKILL.md files from pointer changes. */
export function scopeIndexWorkflowId(scopeKey: string): string {
  return `scope-index/${requireScopeKey(scopeKey)}`;
}
