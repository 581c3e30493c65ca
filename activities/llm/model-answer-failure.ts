import { ApplicationFailure } from '@temporalio/activity';
import OpenAI from 'openai';
import { MALFORMED_MODEL_ANSWER, MODEL_ANSWER_FAILURE } from '../../core/failure-types';

/**
 * Runs one model call and separates what the model answered from what the
 * infrastructure did. A malformed or refused answer, an HTTP error status from the model
 * API, or a request that timed out becomes a non-retryable `ModelAnswerFailure`: the
 * workflow counts those against the model's attempts. Anything else (storage, a dropped
 * connection, a cancelled or dead worker) propagates as is, for the activity retry
 * policy to retry with backoff without spending the model's attempts.
 */
export async function asModelAnswer<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (isModelAnswer(e)) throw ApplicationFailure.create({ message: (e as Error).message, type: MODEL_ANSWER_FAILURE, nonRetryable: true, cause: e as Error });
    throw e;
  }
}

function isModelAnswer(e: unknown): boolean {
  if (e instanceof ApplicationFailure) return e.type === MALFORMED_MODEL_ANSWER;
  if (e instanceof OpenAI.APIUserAbortError) return false; // cancellation, not an answer
  if (e instanceof OpenAI.APIConnectionTimeoutError) return true; // the model did not answer in time
  if (e instanceof OpenAI.APIConnectionError) return false; // could not reach the model server
  return e instanceof OpenAI.APIError && e.status !== undefined;
}
