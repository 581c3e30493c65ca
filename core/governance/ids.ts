// Deterministic ids of the learning path (zod-free: workflow code imports this file directly).
import { learningJobWorkflowId as jobIdFor } from '../learning/revision-id';
import type { Outcome, Segment } from '../schemas';
import { sha256Hex } from '../skills/hash';

/** The learning job's workflow id: a function of the segment, so duplicates are deduplicated. */
export function learningJobWorkflowId(segment: Pick<Segment, 'sessionId' | 'segmentId'> & { scopeKey: string }): string {
  return jobIdFor(segment.scopeKey, segment.sessionId, segment.segmentId);
}

/**
 * The segment id deduplication relies on: the first 32 hex characters of
 * sha256("{scopeKey}\n{sessionId}\n{payload sha256}\n{outcome JSON or null}"), the outcome
 * written as compact JSON with its keys in the order status, score, notes, evaluator
 * (as the validated request carries them). The same events and outcome give the same id.
 */
export function segmentIdFor(input: { scopeKey: string; sessionId: string; payloadSha256: string; outcome?: Outcome }): string {
  return sha256Hex(`${input.scopeKey}\n${input.sessionId}\n${input.payloadSha256}\n${JSON.stringify(input.outcome ?? null)}`).slice(0, 32);
}
