"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SessionWorkflowStartSchema = exports.SegmentSchema = exports.LearningJobRequestSchema = exports.PayloadRefSchema = void 0;
const zod_1 = require("zod");
const session_1 = require("./session");
const scope_1 = require("./scope");
/** Reference to a claim-checked payload stored at `payloads/{sha256}`. */
exports.PayloadRefSchema = zod_1.z.object({
    sha256: zod_1.z.string().regex(/^[0-9a-f]{64}$/, 'payloadRef.sha256 must be 64 lowercase hex characters'),
    bytes: zod_1.z.number().int().nonnegative(),
});
const sessionIdentity = {
    app: zod_1.z.string().min(1, 'app must not be empty').max(512),
    user: zod_1.z.string().min(1, 'user must not be empty').max(512),
    sessionId: zod_1.z.string().min(1, 'sessionId must not be empty').max(512),
    /** Sharing boundary for learned skills; defaults to the worker's configured mode. */
    scopeMode: scope_1.ScopeModeSchema.optional(),
    outcome: session_1.OutcomeSchema.optional(),
};
/**
 * What a platform submits when a session segment finishes: either the events inline
 * or a claim-check reference to them (large transcripts must not enter workflow history).
 */
exports.LearningJobRequestSchema = zod_1.z
    .object({
    ...sessionIdentity,
    events: session_1.SessionEventsSchema.optional(),
    payloadRef: exports.PayloadRefSchema.optional(),
})
    .superRefine((r, ctx) => {
    const given = Number(r.events !== undefined) + Number(r.payloadRef !== undefined);
    if (given !== 1)
        ctx.addIssue({ code: 'custom', path: ['events'], message: 'give exactly one of events or payloadRef' });
});
/** The form a segment takes inside workflow history: events always claim-checked. */
exports.SegmentSchema = zod_1.z.object({
    ...sessionIdentity,
    scopeMode: scope_1.ScopeModeSchema,
    /** Derived from (scopeMode, app, user) by the client; see core/skills/scope-key. */
    scopeKey: scope_1.ScopeKeySchema,
    payloadRef: exports.PayloadRefSchema,
    eventCount: zod_1.z.number().int().nonnegative(),
    /** Stable identity of the segment (hash of session identity + payload), used for dedup. */
    segmentId: zod_1.z.string(),
});
/**
 * The start argument of `sessionWorkflow` a platform passes in its signal-with-start
 * (the entity's own continue-as-new adds internal fields). `{}` takes the defaults.
 */
exports.SessionWorkflowStartSchema = zod_1.z.object({
    idleTimeoutMs: zod_1.z
        .number()
        .int()
        .positive()
        .optional()
        .describe('How long the idle session entity waits for its next segment before completing (default EVOLUTION_SESSION_IDLE_TIMEOUT, 10m).'),
});
//# sourceMappingURL=learning.js.map