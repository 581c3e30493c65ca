"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.learningActivities = learningActivities;
const activity_1 = require("@temporalio/activity");
const core_1 = require("../core");
const errors_1 = require("./errors");
const existing_skills_1 = require("./existing-skills");
const heartbeat_1 = require("./heartbeat");
const reviewer_prompt_1 = require("./llm/reviewer-prompt");
const structured_call_1 = require("./llm/structured-call");
const storage_1 = require("./storage");
function learningActivities({ config, store, openai }) {
    async function loadSegmentEvents(segment) {
        const bytes = await store.getPayload(segment.payloadRef);
        let json;
        try {
            json = JSON.parse(new TextDecoder().decode(bytes));
        }
        catch (e) {
            throw activity_1.ApplicationFailure.nonRetryable(`segment ${segment.segmentId}: stored events are not JSON: ${e.message}`, errors_1.NON_RETRYABLE.segment);
        }
        const parsed = core_1.SessionEventsSchema.safeParse(json);
        if (!parsed.success)
            throw activity_1.ApplicationFailure.nonRetryable(`segment ${segment.segmentId}: stored events are invalid: ${parsed.error.message}`, errors_1.NON_RETRYABLE.segment);
        return parsed.data;
    }
    function governanceSettings() {
        const g = config.governance;
        return { humanGate: g.humanGate, approvalTimeoutMs: g.approvalTimeoutMs, shadowMode: g.shadowMode, minToolCalls: g.minToolCalls, effectivenessThreshold: g.effectivenessThreshold };
    }
    async function writeJobOutcome(outcome, at) {
        await (0, errors_1.withStoreErrors)(() => store.objects.put((0, storage_1.jobOutcomeKey)(outcome.scopeKey, outcome.jobId), { ...outcome, recordedAt: at }));
    }
    return {
        /** Governance settings of this worker, recorded in history so replays see the same values. */
        async loadGovernance() {
            return governanceSettings();
        },
        /**
         * Delta after the cursor, the review policy's verdict, what the reviewer needs, and the
         * governance settings (one activity instead of two: each costs a history round trip).
         */
        async prepareReview({ segment }) {
            const governance = governanceSettings();
            const { minToolCalls } = governance;
            return (0, errors_1.withStoreErrors)(async () => {
                const scope = { mode: segment.scopeMode, app: segment.app, user: segment.user };
                let key;
                try {
                    key = (0, core_1.scopeKey)(scope);
                }
                catch (e) {
                    throw activity_1.ApplicationFailure.nonRetryable(`invalid scope: ${e.message}`, errors_1.NON_RETRYABLE.scope);
                }
                if (key !== segment.scopeKey)
                    throw activity_1.ApplicationFailure.nonRetryable(`segment scope key ${segment.scopeKey} does not match its scope (${key})`, errors_1.NON_RETRYABLE.scope);
                if (segment.scopeMode === 'none')
                    scope.app = scope.user = undefined;
                else if (segment.scopeMode === 'app')
                    scope.user = undefined;
                const events = await loadSegmentEvents(segment);
                const stored = await store.readCursor(key, segment.sessionId);
                const { delta, nextCursor } = (0, core_1.deltaAfterCursor)(events, stored ?? {});
                const policy = (0, core_1.shouldReview)((0, core_1.buildReviewContext)(delta, { precededBy: (0, core_1.turnBefore)(events, delta) }), { minToolCalls });
                const existingSkills = (0, core_1.boundExistingSkills)(await (0, existing_skills_1.loadExistingSkills)(store, key));
                let transcriptRef;
                if (policy.review)
                    transcriptRef = await store.putPayload(JSON.stringify((0, core_1.buildTranscript)(delta)));
                return { scope, scopeKey: key, policy, deltaEventCount: delta.length, nextCursor, existingSkills, transcriptRef, governance };
            });
        },
        /**
         * Advances the review cursor; when the job ends here (policy "no", reviewer skip) it
         * also records the outcome, after the cursor. Both writes are idempotent (same key,
         * same value), so a retry repeats them harmlessly.
         */
        async advanceCursor({ scopeKey, sessionId, cursor, at, outcome }) {
            await (0, errors_1.withStoreErrors)(() => store.writeCursor(scopeKey, sessionId, { lastReviewedAt: cursor.lastReviewedAt, lastEventCount: cursor.lastEventCount ?? 0, updatedAt: at }));
            if (outcome)
                await writeJobOutcome(outcome, at);
        },
        /** The LLM reviewer. A malformed answer fails this attempt (Temporal retries it). */
        async reviewSession({ segment, transcriptRef, existingSkills }) {
            const transcript = JSON.parse(await store.getPayloadText(transcriptRef));
            const messages = (0, reviewer_prompt_1.reviewerMessages)({
                session: { app: segment.app, user: segment.user, sessionId: segment.sessionId },
                transcript: transcript.messages.map((m) => ({
                    role: m.role,
                    content: m.content,
                    ...(m.toolCalls?.length ? { tool_calls: m.toolCalls } : {}),
                    ...(m.toolName ? { name: m.toolName } : {}),
                })),
                existingSkills: existingSkills.map((s) => ({ name: s.name, description: s.description, body_excerpt: s.bodyExcerpt })),
                outcome: segment.outcome,
            });
            return (0, heartbeat_1.whileHeartbeating)((signal) => (0, structured_call_1.structuredCompletion)({ client: openai, model: config.llm.reviewerModel, schemaName: 'review_decision', schema: core_1.ReviewDecisionSchema, messages, signal }));
        },
        /** Writes the job's outcome beside the scope (idempotent: same job id, same object). */
        async recordJobOutcome({ outcome, at }) {
            await writeJobOutcome(outcome, at);
        },
    };
}
//# sourceMappingURL=learning.js.map