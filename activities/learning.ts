import { ApplicationFailure } from '@temporalio/activity';
import {
  boundExistingSkills,
  buildReviewContext,
  buildTranscript,
  deltaAfterCursor,
  scopeKey as scopeKeyOf,
  SessionEventsSchema,
  shouldReview,
  turnBefore,
  type ExistingSkill,
  type PayloadRef,
  type ReviewCursor,
  type ReviewDecision,
  ReviewDecisionSchema,
  normalizeReviewDecision,
  type Scope,
  type Segment,
  type SessionEvent,
  type EvolutionConfig,
} from '../core';
import type { GovernanceSettings, JobOutcome } from '../core/governance';
import { NON_RETRYABLE, withStoreErrors } from './errors';
import { loadExistingSkills } from './existing-skills';
import { whileHeartbeating } from './heartbeat';
import { reviewerMessages } from './llm/reviewer-prompt';
import { structuredCompletion } from './llm/structured-call';
import type OpenAI from 'openai';
import { jobOutcomeKey, type SkillStore } from './storage';

export interface PreparedReview {
  scope: Scope;
  scopeKey: string;
  policy: { review: boolean; reason: string };
  deltaEventCount: number;
  nextCursor: ReviewCursor;
  /** Bounded view for the reviewer and the reconciler (every live skill in the scope). */
  existingSkills: ExistingSkill[];
  /** The bounded, redacted transcript of the delta, claim-checked (only when reviewing). */
  transcriptRef?: PayloadRef;
  /** This worker's governance settings, recorded in history so replays see the same values. */
  governance: GovernanceSettings;
}

export interface LearningDeps {
  config: EvolutionConfig;
  store: SkillStore;
  openai: OpenAI;
}

export function learningActivities({ config, store, openai }: LearningDeps) {
  async function loadSegmentEvents(segment: Segment): Promise<SessionEvent[]> {
    const bytes = await store.getPayload(segment.payloadRef);
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
      throw ApplicationFailure.nonRetryable(`segment ${segment.segmentId}: stored events are not JSON: ${(e as Error).message}`, NON_RETRYABLE.segment);
    }
    const parsed = SessionEventsSchema.safeParse(json);
    if (!parsed.success) throw ApplicationFailure.nonRetryable(`segment ${segment.segmentId}: stored events are invalid: ${parsed.error.message}`, NON_RETRYABLE.segment);
    return parsed.data;
  }

  function governanceSettings(): GovernanceSettings {
    const g = config.governance;
    return { humanGate: g.humanGate, approvalTimeoutMs: g.approvalTimeoutMs, shadowMode: g.shadowMode, minToolCalls: g.minToolCalls, effectivenessThreshold: g.effectivenessThreshold };
  }

  async function writeJobOutcome(outcome: JobOutcome, at: string): Promise<void> {
    await withStoreErrors(() => store.objects.put(jobOutcomeKey(outcome.scopeKey, outcome.jobId), { ...outcome, recordedAt: at }));
  }

  return {
    /** Governance settings of this worker, recorded in history so replays see the same values. */
    async loadGovernance(): Promise<GovernanceSettings> {
      return governanceSettings();
    },

    /**
     * Delta after the cursor, the review policy's verdict, what the reviewer needs, and the
     * governance settings (one activity instead of two: each costs a history round trip).
     */
    async prepareReview({ segment }: { segment: Segment }): Promise<PreparedReview> {
      const governance = governanceSettings();
      const { minToolCalls } = governance;
      return withStoreErrors(async () => {
        const scope: Scope = { mode: segment.scopeMode, app: segment.app, user: segment.user };
        let key: string;
        try {
          key = scopeKeyOf(scope);
        } catch (e) {
          throw ApplicationFailure.nonRetryable(`invalid scope: ${(e as Error).message}`, NON_RETRYABLE.scope);
        }
        if (key !== segment.scopeKey) throw ApplicationFailure.nonRetryable(`segment scope key ${segment.scopeKey} does not match its scope (${key})`, NON_RETRYABLE.scope);
        if (segment.scopeMode === 'none') scope.app = scope.user = undefined;
        else if (segment.scopeMode === 'app') scope.user = undefined;

        const events = await loadSegmentEvents(segment);
        const stored = await store.readCursor(key, segment.sessionId);
        const { delta, nextCursor } = deltaAfterCursor(events, stored ?? {});
        const policy = shouldReview(buildReviewContext(delta, { precededBy: turnBefore(events, delta) }), { minToolCalls });
        const existingSkills = boundExistingSkills(await loadExistingSkills(store, key));
        let transcriptRef: PayloadRef | undefined;
        if (policy.review) transcriptRef = await store.putPayload(JSON.stringify(buildTranscript(delta)));
        return { scope, scopeKey: key, policy, deltaEventCount: delta.length, nextCursor, existingSkills, transcriptRef, governance };
      });
    },

    /**
     * Advances the review cursor; when the job ends here (policy "no", reviewer skip) it
     * also records the outcome, after the cursor. Both writes are idempotent (same key,
     * same value), so a retry repeats them harmlessly.
     */
    async advanceCursor({ scopeKey, sessionId, cursor, at, outcome }: { scopeKey: string; sessionId: string; cursor: ReviewCursor; at: string; outcome?: JobOutcome }): Promise<void> {
      await withStoreErrors(() => store.writeCursor(scopeKey, sessionId, { lastReviewedAt: cursor.lastReviewedAt, lastEventCount: cursor.lastEventCount ?? 0, updatedAt: at }));
      if (outcome) await writeJobOutcome(outcome, at);
    },

    /** The LLM reviewer. A malformed answer fails this attempt (Temporal retries it). */
    async reviewSession({ segment, transcriptRef, existingSkills }: { segment: Segment; transcriptRef: PayloadRef; existingSkills: ExistingSkill[] }): Promise<ReviewDecision> {
      const transcript = JSON.parse(await store.getPayloadText(transcriptRef)) as ReturnType<typeof buildTranscript>;
      const messages = reviewerMessages({
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
      return whileHeartbeating((signal) => structuredCompletion({ client: openai, model: config.llm.reviewerModel, schemaName: 'review_decision', schema: ReviewDecisionSchema, normalize: normalizeReviewDecision, messages, signal }));
    },

    /** Writes the job's outcome beside the scope (idempotent: same job id, same object). */
    async recordJobOutcome({ outcome, at }: { outcome: JobOutcome; at: string }): Promise<void> {
      await writeJobOutcome(outcome, at);
    },
  };
}
