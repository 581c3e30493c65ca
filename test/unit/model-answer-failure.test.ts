import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { asModelAnswer } from '../../activities/llm/model-answer-failure';

// Issue 10 item 7: which failures of a model call spend the reviewer's attempts.
const failWith = (e: unknown) => asModelAnswer(() => Promise.reject(e));

describe('asModelAnswer', () => {
  it('malformed answers, HTTP error statuses and timeouts are model answers (non-retryable, counted by the workflow)', async () => {
    for (const e of [
      ApplicationFailure.retryable('review_decision: not JSON', 'MalformedModelAnswer'),
      new OpenAI.APIConnectionTimeoutError(),
      OpenAI.APIError.generate(500, { error: { message: 'overloaded' } }, 'overloaded', new Headers()),
    ]) {
      const thrown = await failWith(e).catch((x: unknown) => x);
      expect(thrown).toBeInstanceOf(ApplicationFailure);
      expect(thrown).toMatchObject({ type: 'ModelAnswerFailure', nonRetryable: true, message: (e as Error).message });
    }
  });

  it('infrastructure faults and cancellation pass through unchanged (retried by the activity policy)', async () => {
    for (const e of [new Error('connect ECONNREFUSED 127.0.0.1:8333'), new OpenAI.APIConnectionError({ message: 'Connection error.' }), new OpenAI.APIUserAbortError()]) {
      expect(await failWith(e).catch((x: unknown) => x)).toBe(e);
    }
  });

  it('returns the answer when there is one', async () => {
    expect(await asModelAnswer(async () => 42)).toBe(42);
  });
});
