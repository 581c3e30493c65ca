import { z } from 'zod';
import { INPUT_LIMITS, OutcomeSchema, SessionEventsSchema } from './session';
import { ScopeKeySchema, ScopeModeSchema } from './scope';

/** Reference to a claim-checked payload stored at `payloads/{sha256}`. */
export const PayloadRefSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'payloadRef.sha256 must be 64 lowercase hex characters'),
  bytes: z.number().int().nonnegative().max(INPUT_LIMITS.maxPayloadBytes, `payloadRef.bytes: stored events larger than ${INPUT_LIMITS.maxPayloadBytes} bytes`),
});
export type PayloadRef = z.infer<typeof PayloadRefSchema>;

const sessionIdentity = {
  app: z.string().min(1, 'app must not be empty').max(512),
  user: z.string().min(1, 'user must not be empty').max(512),
  sessionId: z.string().min(1, 'sessionId must not be empty').max(512),
  /** Sharing boundary for learned skills; defaults to the worker's configured mode. */
  scopeMode: ScopeModeSchema.optional(),
  outcome: OutcomeSchema.optional(),
};

/**
 * What a platform submits when a session segment finishes: either the events inline
 * or a claim-check reference to them (large transcripts must not enter workflow history).
 */
export const LearningJobRequestSchema = z
  .object({
    ...sessionIdentity,
    events: SessionEventsSchema.optional(),
    payloadRef: PayloadRefSchema.optional(),
  })
  .superRefine((r, ctx) => {
    const given = Number(r.events !== undefined) + Number(r.payloadRef !== undefined);
    if (given !== 1) ctx.addIssue({ code: 'custom', path: ['events'], message: 'give exactly one of events or payloadRef' });
  });
export type LearningJobRequest = z.infer<typeof LearningJobRequestSchema>;

/** The form a segment takes inside workflow history: events always claim-checked. */
export const SegmentSchema = z.object({
  ...sessionIdentity,
  scopeMode: ScopeModeSchema,
  /** Derived from (scopeMode, app, user) by the client; see core/skills/scope-key. */
  scopeKey: ScopeKeySchema,
  payloadRef: PayloadRefSchema,
  eventCount: z.number().int().nonnegative().max(INPUT_LIMITS.maxEvents, `eventCount: more than ${INPUT_LIMITS.maxEvents} events in one segment`),
  /** Stable identity of the segment (hash of session identity + payload), used for dedup. */
  segmentId: z.string(),
});
export type Segment = z.infer<typeof SegmentSchema>;

/**
 * The start argument of `sessionWorkflow` a platform passes in its signal-with-start
 * (the entity's own continue-as-new adds internal fields). `{}` takes the defaults.
 */
export const SessionWorkflowStartSchema = z.object({
  idleTimeoutMs: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('How long the idle session entity waits for its next segment before completing (default EVOLUTION_SESSION_IDLE_TIMEOUT, 10m).'),
});
export type SessionWorkflowStart = z.infer<typeof SessionWorkflowStartSchema>;
