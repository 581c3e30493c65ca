"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.learningActivities = learningActivities;
const activity_1 = require("@temporalio/activity");
const core_1 = require("../core");
const governance_1 = require("../core/governance");
const errors_1 = require("./errors");
const existing_skills_1 = require("./existing-skills");
const heartbeat_1 = require("./heartbeat");
const model_answer_failure_1 = require("./llm/model-answer-failure");
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
    async function readReviewFailures(scopeKey, sessionId, fingerprint) {
        const stored = await store.objects.getText((0, storage_1.reviewFailuresKey)(scopeKey, sessionId, fingerprint));
        if (!stored || stored.notModified)
            return [];
        return JSON.parse(stored.value).failures;
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
                const { cursor: stored, etag: cursorEtag } = await store.readCursorVersion(key, segment.sessionId);
                const { delta, nextCursor } = (0, core_1.deltaAfterCursor)(events, stored ?? {});
                const policy = (0, core_1.shouldReview)((0, core_1.buildReviewContext)(delta, { precededBy: (0, core_1.turnBefore)(events, delta) }), { minToolCalls });
                const reviewedAfter = stored ?? {};
                if (!policy.review)
                    return { scope, scopeKey: key, policy, deltaEventCount: delta.length, nextCursor, existingSkills: [], reviewedAfter, cursorEtag, governance };
                const fingerprint = (0, governance_1.deltaFingerprint)(reviewedAfter, delta[0]);
                const failures = await readReviewFailures(key, segment.sessionId, fingerprint);
                if ((0, governance_1.isPoisonDelta)(failures, config.governance.quarantineAfterFailures)) {
                    return { scope, scopeKey: key, policy, deltaEventCount: delta.length, nextCursor, existingSkills: [], reviewedAfter, cursorEtag, deltaFingerprint: fingerprint, quarantinedAfter: failures, governance };
                }
                const read = await store.readScopeIndex(key);
                const index = read && !read.notModified ? read : undefined;
                const relevant = (0, core_1.mostRelevant)((0, existing_skills_1.existingSkillsOf)(index?.index), (0, core_1.renderTranscript)((0, core_1.buildTranscript)(delta)));
                return { scope, scopeKey: key, policy, deltaEventCount: delta.length, nextCursor, existingSkills: (0, core_1.boundExistingSkills)(relevant), reviewedAfter, indexEtag: index?.etag, cursorEtag, deltaFingerprint: fingerprint, governance };
            });
        },
        /**
         * Advances the review cursor (one conditional write at the version prepareReview read);
         * when the job ends here (policy "no", reviewer skip, quarantine) it also records the
         * outcome, after the cursor. Both writes are idempotent, so a retry repeats them harmlessly.
         */
        async advanceCursor({ scopeKey, sessionId, cursor, at, cursorEtag, outcome }) {
            await (0, errors_1.withStoreErrors)(() => store.writeCursor(scopeKey, sessionId, { lastReviewedAt: cursor.lastReviewedAt, lastEventCount: cursor.lastEventCount ?? 0, updatedAt: at }, cursorEtag === undefined ? undefined : { etag: cursorEtag }));
            if (outcome)
                await writeJobOutcome(outcome, at);
        },
        /**
         * The LLM reviewer. Rebuilding the transcript (the same delta prepareReview cut, from the
         * stored segment) is infrastructure, retried by the activity's policy; the model call's
         * unusable answers fail as `ModelAnswerFailure`, which the workflow counts against the
         * reviewer's attempts (see asModelAnswer).
         */
        async reviewSession({ segment, reviewedAfter, existingSkills }) {
            const events = await (0, errors_1.withStoreErrors)(() => loadSegmentEvents(segment));
            const transcript = (0, core_1.buildTranscript)((0, core_1.deltaAfterCursor)(events, reviewedAfter).delta);
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
            return (0, heartbeat_1.whileHeartbeating)((signal) => (0, model_answer_failure_1.asModelAnswer)(() => (0, structured_call_1.structuredCompletion)({ client: openai, model: config.llm.reviewerModel, schemaName: 'review_decision', schema: core_1.ReviewDecisionSchema, normalize: core_1.normalizeReviewDecision, messages, signal })));
        },
        /** Counts one failed review of a delta (idempotent by job id); see core/governance/quarantine.ts. */
        async recordReviewFailure({ scopeKey, sessionId, fingerprint, failure }) {
            await (0, errors_1.withStoreErrors)(async () => {
                // One session's jobs run one at a time (its session entity), so this read-modify-write has no rival.
                const failures = (0, governance_1.withReviewFailure)(await readReviewFailures(scopeKey, sessionId, fingerprint), failure);
                await store.objects.put((0, storage_1.reviewFailuresKey)(scopeKey, sessionId, fingerprint), { failures });
            });
        },
        /**
         * Reconciles the decision against EVERY skill of the scope (names from the scope index:
         * the snapshot the review was prepared from, so no extra request when this worker has
         * it) and builds the governed revisions. Deterministic given that snapshot.
         */
        async planJob(input) {
            return (0, errors_1.withStoreErrors)(async () => {
                const index = await store.scopeIndexSnapshot(input.scopeKey, input.indexEtag);
                return (0, governance_1.planRevisions)({ ...input, existingSkills: (0, existing_skills_1.existingSkillsOf)(index) });
            });
        },
        /** Writes the job's outcome beside the scope (idempotent: same job id, same object). */
        async recordJobOutcome({ outcome, at }) {
            await writeJobOutcome(outcome, at);
        },
    };
}
//# sourceMappingURL=learning.js.map