import { z } from 'zod';
import { reviewAnswerKey } from './keys';
import type { ObjectStore } from './object-store';

/**
 * The reviewer's answer of one attempt of a job's review step, kept so that a later attempt
 * of the same step (the answer came back while Temporal was down, and the step timed out)
 * uses it instead of calling the model again. Keyed by the job's run and the step's
 * activity id: a re-run of the job (`evolution job retry`, a new run) asks again.
 */
const StoredReviewAnswerSchema = z.object({ decision: z.record(z.string(), z.unknown()) });

export function reviewAnswerStore(objects: ObjectStore) {
  async function writeReviewAnswer(at: { scopeKey: string; sessionId: string; runId: string; activityId: string }, decision: object): Promise<void> {
    await objects.put(reviewAnswerKey(at), { decision });
  }

  async function readReviewAnswer(at: { scopeKey: string; sessionId: string; runId: string; activityId: string }): Promise<Record<string, unknown> | undefined> {
    return (await objects.getJson(reviewAnswerKey(at), StoredReviewAnswerSchema))?.value.decision;
  }

  return { writeReviewAnswer, readReviewAnswer };
}
