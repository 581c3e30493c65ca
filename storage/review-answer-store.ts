import { z } from 'zod';
import { ReviewDecisionSchema, type ReviewDecision } from '../core/schemas/review';
import { reviewAnswerKey } from './keys';
import { CorruptObjectError } from './errors';
import type { ObjectStore } from './object-store';

/** Which attempt an answer belongs to: the job's run and its review step. */
export interface ReviewAnswerOwner {
  scopeKey: string;
  sessionId: string;
  runId: string;
  activityId: string;
}

// Loose: the decision keeps what the reviewer activity added (the answer record, drops).
const StoredReviewAnswerSchema = z.object({ runId: z.string(), activityId: z.string(), decision: ReviewDecisionSchema.loose() });

/**
 * The reviewer's answer of a session's latest review step, kept so that a later attempt of
 * the same step (the answer came back while Temporal was down, and the step timed out) uses
 * it instead of calling the model again. One object per session, overwritten by each job
 * (the session's segments are reviewed one at a time), so it does not grow with the jobs; an
 * answer of another run or step is not used: a re-run of the job (a new run) asks again.
 */
export function reviewAnswerStore(objects: ObjectStore) {
  async function writeReviewAnswer(owner: ReviewAnswerOwner, decision: ReviewDecision): Promise<void> {
    await objects.put(reviewAnswerKey(owner.scopeKey, owner.sessionId), { runId: owner.runId, activityId: owner.activityId, decision });
  }

  async function readReviewAnswer(owner: ReviewAnswerOwner): Promise<ReviewDecision | undefined> {
    // Unreadable is absent: the model is asked again, as it would be without this object.
    const stored = (
      await objects.getJson(reviewAnswerKey(owner.scopeKey, owner.sessionId), StoredReviewAnswerSchema).catch((e: unknown) => {
        if (e instanceof CorruptObjectError) return undefined;
        throw e;
      })
    )?.value;
    return stored && stored.runId === owner.runId && stored.activityId === owner.activityId ? (stored.decision as ReviewDecision) : undefined;
  }

  return { writeReviewAnswer, readReviewAnswer };
}
