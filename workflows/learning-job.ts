import { ActivityFailure, log, ParentClosePolicy, proxyActivities, proxyLocalActivities, setHandler, startChild, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities';
import { outcomeWithRevision } from '../core/governance/job-outcome';
import { approvalExpiryAction } from '../core/governance/approval-expiry';
import type { JobOutcome } from '../core/governance/types';
import { approvalWorkflowId } from '../core/workflow-ids';
import type { IndexedPublication, Segment } from '../core';
import { checkLearningJobInput } from '../core/workflow-inputs';
import type { approvalWorkflow } from './approval';
import { APPROVAL_WORKFLOW } from '../core/workflow-api/approval';
import { requireValidInput } from './input-guard';
import { retiredPatch } from './retired-patch';
import { withinModelAnswerBudget } from './model-answer-budget';
import { decidedWorkOptions, REVIEWER_DEADLINE, reviewerInfrastructureRetry, storageRetry } from './retry-policies';
import { searchAttributes } from '../core/search-attributes';
import { learningJobProgressQuery, type LearningJobProgress } from '../core/workflow-api/session';

export interface LearningJobInput {
  segment: Segment;
  /**
   * What the session's previous job published: this job's review reads the scope index
   * once it includes that, so it sees the skills the session just created (that job did
   * not wait for the index).
   */
  indexedBefore?: IndexedPublication[];
}

const storageOptions = { startToCloseTimeout: '1 minute', retry: storageRetry } as const;
// Most S3 steps before the reviewer's answer take milliseconds: as local activities they run
// inside the workflow task that schedules them, costing the server no activity task and no
// workflow task of their own. A local activity's input is not in history until that task
// completes, so when a worker dies mid-task the step runs again with inputs computed again
// (workflow time included): only reads and idempotent writes are local.
const localStorage = proxyLocalActivities<Activities>(storageOptions);

// The reviewer gets three model answers (malformed, refused, timed out); then the job
// ends without advancing the cursor, so the same delta is reviewed again next time.
// Infrastructure faults (S3, a dead worker) are retried within the deadline and cost none.
const reviewer = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  scheduleToCloseTimeout: REVIEWER_DEADLINE,
  // The activity heartbeats during the LLM call: a dead worker is noticed in seconds.
  heartbeatTimeout: '20 seconds',
  retry: reviewerInfrastructureRetry,
});

/**
 * Retired (docs/versioning.md): from this patch on, every step after the reviewer's answer is
 * a task-queue activity that waits out storage outages for the tolerance (decidedWorkOptions).
 */
const DECIDED_WORK_WAITS_OUT_OUTAGES = 'decided-work-waits-out-outages';

/**
 * Reviews one finished session segment: delta after the cursor → review policy →
 * LLM reviewer → reconcile → gates → immutable revisions → publish or hold.
 * The workflow id is a function of the segment, so a duplicate submission is deduplicated.
 */
export async function learningJobWorkflow(input: LearningJobInput): Promise<JobOutcome> {
  requireValidInput('learning job', checkLearningJobInput(input));
  const { segment } = input;
  const jobId = workflowInfo().workflowId;
  // Answered to `learn --wait`; a query adds nothing to the history, so running jobs replay as before.
  let progress: LearningJobProgress = { step: 'preparing' };
  setHandler(learningJobProgressQuery, () => progress);
  const prepared = await localStorage.prepareReview({ segment, indexedBefore: input.indexedBefore });
  const { governance } = prepared;
  // The job's usage is counted by its last write, with what the job's writes add (one write of the scope's summary).
  const usage = prepared.usage ? { usage: prepared.usage } : {};
  const cursorAdvance = { scopeKey: prepared.scopeKey, sessionId: segment.sessionId, cursor: prepared.nextCursor, cursorEtag: prepared.cursorEtag };
  // A job that ends right after advancing the cursor records its outcome in the same activity.
  const advanceCursor = (outcome: JobOutcome) => localStorage.advanceCursor({ ...cursorAdvance, at: new Date().toISOString(), outcome, ...usage });
  const base = { jobId, scopeKey: prepared.scopeKey, sessionId: segment.sessionId, deltaEvents: prepared.deltaEventCount };

  if (prepared.quarantinedAfter) {
    // A poison delta: it failed review too often; step past it so the session can learn again.
    const reasons = prepared.quarantinedAfter.map((f) => f.reason).join(' | ');
    return finishAdvancingCursor({
      ...base,
      status: 'quarantined',
      reason: `delta quarantined after ${prepared.quarantinedAfter.length} failed reviews: ${reasons}`,
      cursorAdvanced: true,
      revisions: [],
      dropped: [],
      quarantinedAfter: prepared.quarantinedAfter,
    });
  }

  if (!prepared.policy.review) {
    return finishAdvancingCursor({ ...base, status: 'policy_skipped', reason: prepared.policy.reason, cursorAdvanced: true, revisions: [], dropped: [] });
  }

  let decision;
  progress = { step: 'reviewing' };
  // A valid answer advances the cursor in the review step's own write (with the answer, kept for a retry of the step),
  // and a proposal is planned in the same step, reconciled against every skill of the scope (through the index).
  const at = new Date().toISOString();
  const advance = { cursor: prepared.nextCursor, cursorEtag: prepared.cursorEtag, at };
  const planInput = { indexEtag: prepared.indexEtag, jobId, scope: prepared.scope, scopeKey: prepared.scopeKey, outcome: segment.outcome, governance, at };
  try {
    decision = await withinModelAnswerBudget(() =>
      reviewer.reviewSession({ segment, reviewedAfter: prepared.reviewedAfter, indexEtag: prepared.indexEtag, advance, plan: planInput }),
    );
  } catch (err) {
    const cause = err instanceof ActivityFailure && err.cause ? err.cause.message : (err as Error).message;
    const outcome: JobOutcome = { ...base, status: 'reviewer_failed', reason: cause, cursorAdvanced: false, revisions: [], dropped: [] };
    progress = { step: 'finishing' };
    await localStorage.recordReviewFailure({
      scopeKey: prepared.scopeKey,
      sessionId: segment.sessionId,
      reviewedAfter: prepared.reviewedAfter,
      fingerprint: prepared.deltaFingerprint!,
      failure: { jobId, reason: cause, at: new Date().toISOString() },
      outcome,
      ...usage,
    });
    return outcome;
  }

  // The reviewer has answered: from here on, every step is a task-queue activity that waits out storage outages for
  // the tolerance, so an answer that cost a model call is never discarded because S3 was down for longer than a few minutes.
  retiredPatch(DECIDED_WORK_WAITS_OUT_OUTAGES);
  const decidedStorage = proxyActivities<Activities>(decidedWorkOptions(prepared.storageOutageToleranceMs));
  const decidedPublisher = proxyActivities<Activities>(decidedWorkOptions(prepared.storageOutageToleranceMs, { heartbeat: true }));

  // How the reviewer's answer was obtained (format, repairs, tokens) goes on the outcome, not into the plan's input.
  // Histories recorded before the review step advanced the cursor and planned have no `cursorAdvanced` and no `plan`:
  // the plan step advances it and plans, as it did then.
  const { answer, cursorAdvanced, plan: plannedInReview, ...reviewed } = decision;
  decision = reviewed;
  const answerRecord = answer ? { reviewerAnswer: answer } : {};
  if (decision.skip_reason && !decision.creates.length && !decision.updates.length && !decision.deletions.length) {
    const skipped: JobOutcome = {
      ...base,
      status: 'reviewer_skipped',
      reason: decision.skip_reason,
      cursorAdvanced: true,
      revisions: [],
      dropped: decision.dropped ?? [],
      ...answerRecord,
    };
    progress = { step: 'finishing' };
    if (cursorAdvanced) await decidedStorage.recordJobOutcome({ outcome: skipped, at: new Date().toISOString(), ...usage });
    else await decidedStorage.advanceCursor({ ...cursorAdvance, at: new Date().toISOString(), outcome: skipped, ...usage });
    return skipped;
  }
  // A valid decision advances the cursor before any governance work (the review step's write,
  // else the planning activity's): storage or publication failures below are retried from
  // revision state, never by re-reviewing.
  progress = { step: 'planning' };
  const plan =
    plannedInReview ?? (await decidedStorage.advanceCursorAndPlan({ ...(cursorAdvanced ? {} : { cursor: { ...cursorAdvance, at } }), plan: { ...planInput, decision } }));

  for (const d of plan.dropped) log.warn('reconciler dropped a candidate', { jobId, name: d.name, list: d.list, reason: d.reason });
  for (const r of plan.rewrites) log.info('reconciler rewrote a candidate', { jobId, name: r.name, list: r.list, reason: r.reason });

  let outcome: JobOutcome = {
    ...base,
    status: 'reviewed',
    reason: decision.skip_reason || 'reviewer proposed changes',
    cursorAdvanced: true,
    revisions: [],
    dropped: plan.dropped,
    ...answerRecord,
  };
  for (const [i, revision] of plan.revisions.entries()) {
    progress = { step: 'publishing', revisionsDone: i, revisions: plan.revisions.length };
    // The job's last write records its outcome.
    const outcomeToRecord = i === plan.revisions.length - 1 ? { before: outcome, at: new Date().toISOString(), ...usage } : undefined;
    if (revision.status === 'pending') {
      const r = await decidedPublisher.recordAndPublishRevision({ jobId, revision, ...(outcomeToRecord ? { outcome: outcomeToRecord } : {}) });
      outcome = outcomeWithRevision(outcome, revision, r.status, r.indexSeq);
      continue;
    }
    await decidedStorage.recordRevision({ revision, ...(outcomeToRecord ? { outcome: outcomeToRecord } : {}) });
    if (revision.status === 'pending_approval') {
      try {
        await startChild<typeof approvalWorkflow>(APPROVAL_WORKFLOW, {
          workflowId: approvalWorkflowId(revision.id),
          args: [
            {
              revision: { scopeKey: revision.scopeKey, skillId: revision.skillId, revisionId: revision.id },
              timeoutMs: governance.approvalTimeoutMs,
              expiryAction: approvalExpiryAction(revision.risk?.tier, governance.approvalExpiryAction),
              source: 'reviewer',
              ...(prepared.storageOutageToleranceMs !== undefined ? { storageOutageToleranceMs: prepared.storageOutageToleranceMs } : {}),
            },
          ],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          searchAttributes: searchAttributes({ kind: 'approval', scopeKey: revision.scopeKey, skillId: revision.skillId, revisionId: revision.id }),
        });
      } catch (err) {
        // A re-run job (reset) finds its revision already waiting: that is the state we want.
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    }
    outcome = outcomeWithRevision(outcome, revision, revision.status);
  }
  if (plan.revisions.length) return outcome;
  progress = { step: 'finishing' };
  await decidedStorage.recordJobOutcome({ outcome, at: new Date().toISOString(), ...usage });
  return outcome;

  async function finishAdvancingCursor(outcome: JobOutcome): Promise<JobOutcome> {
    progress = { step: 'finishing' };
    await advanceCursor(outcome);
    return outcome;
  }
}
