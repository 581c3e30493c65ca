import { ApplicationFailure, Context, log } from '@temporalio/activity';
import {
  boundExistingSkills,
  buildReviewContext,
  buildTranscript,
  deltaAfterCursor,
  scopeKey as scopeKeyOf,
  SessionEventsSchema,
  INPUT_LIMITS,
  shouldReview,
  turnBefore,
  type ExistingSkill,
  type ReviewCursor,
  type ReviewDecision,
  ReviewDecisionSchema,
  normalizeReviewDecision,
  nameNamelessUpdateSpecs,
  type Scope,
  type Segment,
  type SessionEvent,
  type EvolutionConfig,
  type IndexedPublication,
  mostRelevant,
  renderTranscript,
  type Transcript,
  type SkillSpec,
} from '../core';
import {
  deltaFingerprint,
  isPoisonDelta,
  planRevisions,
  updatesNeedingPublished,
  type GovernanceSettings,
  type JobOutcome,
  type ReviewFailure,
  type PlanInput,
  type RevisionPlan,
} from '../core/governance';
import { NON_RETRYABLE } from '../core/failure-types';
import { withStoreErrors } from './errors';
import type { ScopeRecording } from './usage';
import { attributeSession, type JobUsage } from '../core/usage';
import { rejectionsFor, type RejectionNote } from '../core/governance/rejections';
import { scopeSkillsOf } from './existing-skills';
import { whileHeartbeating } from './heartbeat';
import { asModelAnswer } from './llm/model-answer-failure';
import { reviewerMessages } from './llm/reviewer-prompt';
import { structuredCompletion } from './llm/structured-call';
import type OpenAI from 'openai';
import type { ReviewStep, SkillStore } from '../storage';

/**
 * How long a review waits for the scope index to include what the session's previous job
 * published (the index workflow's next burst, normally well under a second); after that it
 * goes on with the index as it is.
 */
const PREVIOUS_JOB_INDEX_WAIT_MS = 10_000;
/**
 * A review uses the scope index this worker read or wrote less than this long ago without
 * reading it again (docs/publication.md, "What a review sees"): a busy scope's jobs share one
 * read per window instead of making one each. The index already trails publications by its
 * workflow's burst, a few hundred milliseconds; what the session itself published is always
 * waited for.
 */
const REVIEW_INDEX_REUSE_MS = 1_000;

export interface PreparedReview {
  scope: Scope;
  scopeKey: string;
  policy: { review: boolean; reason: string };
  deltaEventCount: number;
  nextCursor: ReviewCursor;
  /** Identity of this delta across the session's jobs (only when reviewing). */
  deltaFingerprint?: string;
  /** Set when this delta already failed review often enough: the job quarantines it instead. */
  quarantinedAfter?: ReviewFailure[];
  /** The cursor the delta was cut after: the reviewer rebuilds the same transcript from the segment. */
  reviewedAfter: ReviewCursor;
  /**
   * ETag of the scope index the review was prepared from: the reviewer ranks the skills it
   * is shown from that snapshot, and advanceCursorAndPlan reconciles against it.
   */
  indexEtag?: string;
  /** ETag of the cursor read here (null: none), so advancing it is one conditional write. */
  cursorEtag?: string | null;
  /** This worker's governance settings, recorded in history so replays see the same values. */
  governance: GovernanceSettings;
  /**
   * How long the job's steps after the reviewer's answer wait out storage outages
   * (EVOLUTION_STORAGE_OUTAGE_TOLERANCE of the worker that prepared it), recorded in history.
   */
  storageOutageToleranceMs?: number;
  /**
   * What the session loaded and how it ended (usage attribution, from the events read here),
   * with the index snapshot it was offered: the job's last write sends it to the scope's usage
   * workflow together with what the job's writes add, so a job costs one write of the summary.
   */
  usage?: JobUsage;
}

export interface ReviewSessionInput {
  segment: Segment;
  reviewedAfter: ReviewCursor;
  /** PreparedReview.indexEtag: the snapshot the reviewer's skills are ranked from. */
  indexEtag?: string;
  /**
   * The cursor to advance to once the model's answer is valid (PreparedReview's next cursor
   * and the ETag it was read at, with workflow time): stored in the same write as the answer.
   */
  advance?: { cursor: ReviewCursor; cursorEtag?: string | null; at: string };
  /** What planning the job needs besides the decision: given, a proposal the cursor advanced for is planned in this step. */
  plan?: Omit<PlanJobInput, 'decision'>;
}

/**
 * The reviewer's decision, whether its step advanced the cursor, and the job's plan when it
 * made one: a storage fault on either leaves both to the plan step (advanceCursorAndPlan).
 */
export type ReviewOutcome = ReviewDecision & { cursorAdvanced?: boolean; plan?: RevisionPlan };

/** The plan's input without the existing skills, which the plan reads from the index snapshot. */
export type PlanJobInput = Omit<PlanInput, 'existingSkills'> & { indexEtag?: string };

export interface AdvanceCursorInput {
  scopeKey: string;
  sessionId: string;
  cursor: ReviewCursor;
  at: string;
  cursorEtag?: string | null;
  /** When the job ends here (policy "no", reviewer skip, quarantine): recorded after the cursor. */
  outcome?: JobOutcome;
  /** With `outcome`: the job's usage (PreparedReview.usage), counted with it. */
  usage?: JobUsage;
}

export interface LearningDeps {
  config: EvolutionConfig;
  store: SkillStore;
  openai: OpenAI;
  /** Usage attribution: counts a job's usage with its last write's records (activities/usage.ts); none: no attribution. */
  noteSession?: ScopeRecording['noteSession'];
}

export function learningActivities({ config, store, openai, noteSession }: LearningDeps) {
  /** The segment's events, refused before they are read when the segment says they are beyond the input bounds. */
  async function loadSegmentEvents(segment: Segment): Promise<SessionEvent[]> {
    const tooLarge = (what: string) =>
      ApplicationFailure.nonRetryable(`segment ${segment.segmentId}: ${what} (input bounds: docs/platform-contract.md)`, NON_RETRYABLE.inputTooLarge);
    if (segment.payloadRef.bytes > INPUT_LIMITS.maxPayloadBytes) throw tooLarge(`stored events are ${segment.payloadRef.bytes} bytes, more than ${INPUT_LIMITS.maxPayloadBytes}`);
    if (segment.eventCount > INPUT_LIMITS.maxEvents) throw tooLarge(`${segment.eventCount} events, more than ${INPUT_LIMITS.maxEvents}`);
    const bytes = await store.getPayload(segment.payloadRef);
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
      throw ApplicationFailure.nonRetryable(`segment ${segment.segmentId}: stored events are not JSON: ${(e as Error).message}`, NON_RETRYABLE.segment);
    }
    const parsed = SessionEventsSchema.safeParse(json);
    if (!parsed.success) {
      const bounds = parsed.error.issues.filter((i) => i.code === 'too_big');
      if (bounds.length)
        throw tooLarge(
          bounds
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .slice(0, 3)
            .join('; '),
        );
      throw ApplicationFailure.nonRetryable(`segment ${segment.segmentId}: stored events are invalid: ${parsed.error.message}`, NON_RETRYABLE.segment);
    }
    return parsed.data;
  }

  function governanceSettings(): GovernanceSettings {
    const g = config.governance;
    return {
      humanGate: g.humanGate,
      approvalTimeoutMs: g.approvalTimeoutMs,
      approvalExpiryAction: g.approvalExpiryAction,
      shadowMode: g.shadowMode,
      minToolCalls: g.minToolCalls,
      effectivenessThreshold: g.effectivenessThreshold,
    };
  }

  function writeCursor(
    { scopeKey, sessionId, cursor, at, cursorEtag }: Pick<AdvanceCursorInput, 'scopeKey' | 'sessionId' | 'cursor' | 'at' | 'cursorEtag'>,
    review?: ReviewStep & { decision: ReviewDecision },
  ) {
    const position = { lastReviewedAt: cursor.lastReviewedAt, lastEventCount: cursor.lastEventCount ?? 0, updatedAt: at };
    return store.writeCursor(scopeKey, sessionId, position, cursorEtag === undefined ? undefined : { etag: cursorEtag }, review);
  }

  async function writeJobOutcome(outcome: JobOutcome, at: string, usage?: JobUsage): Promise<void> {
    await withStoreErrors(() => store.writeJobOutcome(outcome, at));
    if (usage) countUsage(outcome.scopeKey, usage);
  }

  /** Counted once by job id, however often a retried last write sends it. */
  function countUsage(scopeKey: string, usage: JobUsage): void {
    noteSession?.(scopeKey, usage.session, usage.indexEtag);
  }

  /**
   * Advances the review cursor (one conditional write at the version prepareReview read);
   * when the job ends here (policy "no", reviewer skip, quarantine) it also records the
   * outcome, after the cursor, and a quarantine's session-level audit entry. Both writes are idempotent, so a retry repeats them harmlessly.
   */
  async function advanceCursor({ scopeKey, sessionId, cursor, at, cursorEtag, outcome, usage }: AdvanceCursorInput): Promise<void> {
    await withStoreErrors(() => writeCursor({ scopeKey, sessionId, cursor, at, cursorEtag }));
    if (outcome?.status === 'quarantined') {
      await withStoreErrors(() =>
        store.appendSessionAudit({
          id: `${outcome.jobId}:quarantine_delta`,
          at,
          action: 'quarantine_delta',
          scopeKey,
          sessionId,
          jobId: outcome.jobId,
          actor: 'evolution',
          reason: outcome.reason,
          failures: outcome.quarantinedAfter ?? [],
        }),
      );
    }
    if (outcome) await writeJobOutcome(outcome, at, usage);
  }

  /**
   * Reconciles the decision against EVERY skill of the scope (names from the scope index:
   * the snapshot the review was prepared from, so no extra request when this worker has
   * it) and builds the governed revisions. Deterministic given that snapshot.
   */
  async function planJob(input: PlanJobInput): Promise<RevisionPlan> {
    return withStoreErrors(async () => {
      // No ETag: prepareReview found no index, and that empty snapshot is the one to plan against.
      const index = await store.scopeIndexSnapshot(input.scopeKey, input.indexEtag ?? null);
      const planInput = { ...input, existingSkills: scopeSkillsOf(index).existing };
      const draft = planRevisions(planInput);
      // The risk tier diffs each update against the revision it replaces: read those (immutable, so a retry reads the same).
      const targets = updatesNeedingPublished(draft);
      if (targets.length === 0) return draft;
      const publishedSpecs: Record<string, SkillSpec> = {};
      for (const t of targets) {
        const published = await store.readRevision(input.scopeKey, t.skillId, t.revisionId);
        if (published?.spec) publishedSpecs[t.revisionId] = published.spec;
      }
      return planRevisions({ ...planInput, publishedSpecs });
    });
  }

  /**
   * What the reviewer is shown of the scope (and the rejections about it): the existing skills, the most relevant (name/description overlap
   * with the delta, at most DEFAULT_RELEVANT_SKILLS) of the index snapshot the review was
   * prepared from, never the whole scope; the reconciler checks names against the whole
   * scope when planning. Ranked here rather than in prepareReview, so they do not travel
   * through history twice (its result and this activity's input).
   */
  async function reviewerContext(scopeKey: string, indexEtag: string | undefined, transcript: Transcript): Promise<{ existingSkills: ExistingSkill[]; rejected: RejectionNote[] }> {
    const index = await store.scopeIndexSnapshot(scopeKey, indexEtag ?? null);
    const existingSkills = boundExistingSkills(mostRelevant(scopeSkillsOf(index).relevance, renderTranscript(transcript)));
    // The index names the version of the scope's rejections: none, or ones this process has, cost no request. A scope
    // without an index has none (a rejection creates the index); an index written before the field: read them.
    const notes = !index ? [] : index.rejections === undefined ? await store.readRejections(scopeKey) : await store.readRejectionsAt(scopeKey, index.rejections);
    return { existingSkills, rejected: rejectionsFor(notes, existingSkills) };
  }

  return {
    /**
     * Governance settings of this worker and its storage outage tolerance, recorded in history
     * so replays see the same values.
     */
    async loadGovernance(): Promise<GovernanceSettings & { storageOutageToleranceMs?: number }> {
      const storageOutageToleranceMs = config.runtime.storageOutageToleranceMs;
      return { ...governanceSettings(), ...(storageOutageToleranceMs !== undefined ? { storageOutageToleranceMs } : {}) };
    },

    /**
     * Delta after the cursor, the review policy's verdict, what the reviewer needs, and the
     * governance settings (one activity instead of two: each costs a history round trip).
     * `indexedBefore`: what the session's previous job published; when reviewing, the scope
     * index is read once it includes that (normally at once), so this review sees the skills
     * the session just created.
     */
    async prepareReview({ segment, indexedBefore = [] }: { segment: Segment; indexedBefore?: IndexedPublication[] }): Promise<PreparedReview> {
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

        // Neither read needs the other: one S3 round trip instead of two, on every job's first workflow task.
        const [events, { cursor: stored, failedReviews, etag: cursorEtag }] = await Promise.all([loadSegmentEvents(segment), store.readCursorVersion(key, segment.sessionId)]);
        // Attribution from the events already loaded (no request of its own), counted by the job's last write.
        const session = noteSession
          ? attributeSession(Context.current().info.workflowExecution?.workflowId ?? segment.segmentId, events, segment.outcome, segment.sessionId)
          : undefined;
        const reviewedAfter: ReviewCursor = stored ? { lastReviewedAt: stored.lastReviewedAt, lastEventCount: stored.lastEventCount } : {};
        const { delta, nextCursor } = deltaAfterCursor(events, reviewedAfter);
        const policy = shouldReview(buildReviewContext(delta, { precededBy: turnBefore(events, delta) }), { minToolCalls });
        const storageOutageToleranceMs = config.runtime.storageOutageToleranceMs;
        const common = {
          scope,
          scopeKey: key,
          policy,
          deltaEventCount: delta.length,
          nextCursor,
          reviewedAfter,
          cursorEtag,
          governance,
          ...(storageOutageToleranceMs !== undefined ? { storageOutageToleranceMs } : {}),
          ...(session ? { usage: { session } } : {}),
        };
        if (!policy.review) return common;
        const fingerprint = deltaFingerprint(reviewedAfter, delta[0]);
        // Kept in the cursor object: no extra request (see storage/cursor-store.ts).
        const failures = failedReviews?.fingerprint === fingerprint ? failedReviews.failures : [];
        if (isPoisonDelta(failures, config.governance.quarantineAfterFailures)) return { ...common, deltaFingerprint: fingerprint, quarantinedAfter: failures };
        const index = await store.readScopeIndexIncluding(key, indexedBefore, { timeoutMs: PREVIOUS_JOB_INDEX_WAIT_MS, reuseWithinMs: REVIEW_INDEX_REUSE_MS });
        return { ...common, indexEtag: index?.etag, deltaFingerprint: fingerprint, ...(session ? { usage: { session, indexEtag: index?.etag ?? null } } : {}) };
      });
    },

    advanceCursor,

    /**
     * The LLM reviewer. Rebuilding the transcript (the same delta prepareReview cut, from the
     * stored segment) is infrastructure, retried by the activity's policy; the model call's
     * unusable answers fail as `ModelAnswerFailure`, which the workflow counts against the
     * reviewer's attempts (see asModelAnswer).
     */
    async reviewSession({ segment, reviewedAfter, indexEtag, advance, plan }: ReviewSessionInput): Promise<ReviewOutcome> {
      // A proposal is planned here, once the cursor has advanced for it: the plan is in this step's result, so the
      // job needs no planning activity (a round trip, and the decision in history a second time).
      const withPlan = async (decision: ReviewDecision): Promise<ReviewOutcome> => {
        const { answer: _, ...proposal } = decision;
        const proposes = proposal.creates.length > 0 || proposal.updates.length > 0 || proposal.deletions.length > 0;
        if (!plan || !proposes) return { ...decision, cursorAdvanced: true };
        try {
          return { ...decision, cursorAdvanced: true, plan: await planJob({ ...plan, decision: proposal }) };
        } catch (e) {
          log.warn('job not planned with the review; the plan step plans it', { sessionId: segment.sessionId, error: String(e) });
          return { ...decision, cursorAdvanced: true };
        }
      };
      // An earlier attempt's answer whose completion never reached Temporal (down while the
      // model answered; the step then timed out) is used as it is: one model call per review.
      const { workflowExecution, activityId, attempt } = Context.current().info;
      const step = workflowExecution && { runId: workflowExecution.runId, activityId };
      if (step && advance && attempt > 1) {
        const earlier = await withStoreErrors(() => store.readStepReview(segment.scopeKey, segment.sessionId, step));
        if (earlier) {
          log.info('reviewer answer of an earlier attempt reused', { sessionId: segment.sessionId, attempt });
          return withPlan(earlier);
        }
      }
      const events = await withStoreErrors(() => loadSegmentEvents(segment));
      const transcript = buildTranscript(deltaAfterCursor(events, reviewedAfter).delta);
      const { existingSkills, rejected } = await withStoreErrors(() => reviewerContext(segment.scopeKey, indexEtag, transcript));
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
        rejected,
      });
      const { value, record } = await whileHeartbeating((signal) =>
        asModelAnswer(() =>
          structuredCompletion({
            client: openai,
            model: config.llm.reviewerModel,
            schemaName: 'review_decision',
            schema: ReviewDecisionSchema,
            prepare: nameNamelessUpdateSpecs,
            normalize: normalizeReviewDecision,
            messages,
            signal,
          }),
        ),
      );
      if (record.repairs.length) log.info('reviewer answer repaired', { sessionId: segment.sessionId, format: record.format, repairs: record.repairs });
      const decision: ReviewDecision = { ...value, answer: record };
      if (!step || !advance) return decision;
      // A valid answer consumes the delta: the cursor advances with the answer in one write.
      // Best effort: with S3 down the answer still reaches Temporal, which is what counts, and the plan step advances the cursor.
      const advanced = await whileHeartbeating(() =>
        writeCursor({ scopeKey: segment.scopeKey, sessionId: segment.sessionId, ...advance }, { ...step, decision }).then(
          () => true,
          (e: unknown) => {
            log.warn('cursor not advanced with the reviewer answer; the plan step advances it', { sessionId: segment.sessionId, error: String(e) });
            return false;
          },
        ),
      );
      return advanced ? withPlan(decision) : { ...decision, cursorAdvanced: false };
    },

    /**
     * Counts one failed review of a delta (idempotent by job id; see core/governance/quarantine.ts),
     * then records the job's outcome when given it (the job ends here), at the failure's time.
     */
    async recordReviewFailure({
      scopeKey,
      sessionId,
      reviewedAfter,
      fingerprint,
      failure,
      outcome,
      usage,
    }: {
      scopeKey: string;
      sessionId: string;
      reviewedAfter: ReviewCursor;
      fingerprint: string;
      failure: ReviewFailure;
      outcome: JobOutcome;
      usage?: JobUsage;
    }): Promise<void> {
      await withStoreErrors(() => store.recordFailedReview(scopeKey, sessionId, { position: reviewedAfter, fingerprint, failure }));
      await writeJobOutcome(outcome, failure.at, usage);
    },

    /**
     * A valid decision: the cursor advances (before any governance work) unless the review
     * step already advanced it (`cursor` absent), then the job is planned. One activity
     * instead of two (each costs a history round trip); a retry repeats the idempotent
     * cursor write and plans from the same index snapshot.
     */
    async advanceCursorAndPlan({ cursor, plan }: { cursor?: AdvanceCursorInput; plan: PlanJobInput }): Promise<RevisionPlan> {
      if (cursor) await advanceCursor(cursor);
      return planJob(plan);
    },

    /** Writes the job's outcome (idempotent: same job id, same object). */
    async recordJobOutcome({ outcome, at, usage }: { outcome: JobOutcome; at: string; usage?: JobUsage }): Promise<void> {
      await writeJobOutcome(outcome, at, usage);
    },
  };
}
