"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.revisionIdFor = revisionIdFor;
exports.isScopeKey = isScopeKey;
exports.approvalWorkflowId = approvalWorkflowId;
exports.sessionWorkflowId = sessionWorkflowId;
exports.learningJobWorkflowId = learningJobWorkflowId;
exports.scopeIndexWorkflowId = scopeIndexWorkflowId;
const hash_1 = require("../skills/hash");
const scope_key_1 = require("../skills/scope-key");
/**
 * Deterministic identifiers. A revision id is a function of the job that
 * produced it and the candidate's position in that job's (reconciled)
 * decision, so a retried activity or a replayed workflow names the same
 * revision again instead of minting a second one. Ids are safe as one S3 key
 * segment and inside Temporal workflow ids.
 */
/** `rev-{24 hex of sha256(jobId)}-{ordinal}`; ordinal is the candidate's 0-based position in the job. */
function revisionIdFor(jobId, ordinal) {
    if (jobId === '')
        throw new RangeError('jobId must not be empty');
    if (!Number.isInteger(ordinal) || ordinal < 0)
        throw new RangeError(`ordinal must be a non-negative integer, got ${ordinal}`);
    return `rev-${(0, hash_1.shortHash)(jobId, 24)}-${ordinal}`;
}
const SCOPE_KEY = /^(global|apps\/[^/]+|users\/[^/]+\/[^/]+)$/;
/** True for keys produced by scopeKey(): `global`, `apps/{seg}`, `users/{seg}/{seg}` with safe segments. */
function isScopeKey(key) {
    return SCOPE_KEY.test(key) && key.split('/').slice(1).every(scope_key_1.isSafeSegment);
}
function requireScopeKey(key) {
    if (!isScopeKey(key))
        throw new RangeError(`not a scope key: ${JSON.stringify(key)}`);
    return key;
}
/** The approval workflow of one revision: an approver needs nothing but the revision id. */
function approvalWorkflowId(revisionId) {
    return `approval/${(0, scope_key_1.safeSegment)(revisionId)}`;
}
/** The per-session entity workflow that orders segments and owns the review cursor. */
function sessionWorkflowId(scopeKey, sessionId) {
    return `session/${requireScopeKey(scopeKey)}/${(0, scope_key_1.safeSegment)(sessionId)}`;
}
/** One learning job per session segment, so a duplicate submission is deduplicated by Temporal. */
function learningJobWorkflowId(scopeKey, sessionId, segmentId) {
    return `learning/${requireScopeKey(scopeKey)}/${(0, scope_key_1.safeSegment)(sessionId)}/${(0, scope_key_1.safeSegment)(segmentId)}`;
}
/** The per-scope entity workflow that materializes the scope index and SKILL.md files from pointer changes. */
function scopeIndexWorkflowId(scopeKey) {
    return `scope-index/${requireScopeKey(scopeKey)}`;
}
//# sourceMappingURL=revision-id.js.map