// The segment id (zod-free: workflow code may import this file directly). Workflow ids: core/workflow-ids.ts.
import type { Outcome } from '../schemas';
import { sha256Hex } from '../skills/hash';

/**
 * The segment id deduplication relies on: the first 32 hex characters of
 * sha256("{scopeKey}\n{sessionId}\n{payload sha256}\n{outcome JSON or null}"), the outcome
 * written as compact JSON with its keys in the order status, score, notes, evaluator
 * (as the validated request carries them). The same events and outcome give the same id.
 */
export function segmentIdFor(input: { scopeKey: string; sessionId: string; payloadSha256: string; outcome?: Outcome }): string {
  return sha256Hex(`${input.scopeKey}\n${input.sessionId}\n${input.payloadSha256}\n${JSON.stringify(input.outcome ?? null)}`).slice(0, 32);
}
