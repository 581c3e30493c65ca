"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.learningJobWorkflowId = learningJobWorkflowId;
exports.segmentIdFor = segmentIdFor;
// Deterministic ids of the learning path (zod-free: workflow code imports this file directly).
const revision_id_1 = require("../learning/revision-id");
const hash_1 = require("../skills/hash");
/** The learning job's workflow id: a function of the segment, so duplicates are deduplicated. */
function learningJobWorkflowId(segment) {
    return (0, revision_id_1.learningJobWorkflowId)(segment.scopeKey, segment.sessionId, segment.segmentId);
}
/**
 * The segment id deduplication relies on: the first 32 hex characters of
 * sha256("{scopeKey}\n{sessionId}\n{payload sha256}\n{outcome JSON or null}"), the outcome
 * written as compact JSON with its keys in the order status, score, notes, evaluator
 * (as the validated request carries them). The same events and outcome give the same id.
 */
function segmentIdFor(input) {
    return (0, hash_1.sha256Hex)(`${input.scopeKey}\n${input.sessionId}\n${input.payloadSha256}\n${JSON.stringify(input.outcome ?? null)}`).slice(0, 32);
}
//# sourceMappingURL=ids.js.map