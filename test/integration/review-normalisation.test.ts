import { ApplicationFailure } from '@temporalio/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../../activities/llm/openai-client';
import { reviewerMessages } from '../../activities/llm/reviewer-prompt';
import { structuredCompletion } from '../../activities/llm/structured-call';
import { normalizeReviewDecision, ReviewDecisionSchema, type EvolutionConfig } from '../../core';
import { realServices } from '../support/infra';

// The reviewer activity's call path (real openai client over HTTP to the local model server):
// the answer reaches the workflow normalised, and an answer the normalisation rejects is a
// retryable MalformedModelAnswer, like one that breaks the schema.
let config: EvolutionConfig;
beforeAll(async () => {
  config = await realServices(['model']);
});

const transcript = [
  { role: 'user', content: '  Report the weather for Paris.  ' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { name: 'geocode', arguments: '{"city":"Paris"}' },
      { name: 'get_weather', arguments: '{"lat":1,"lon":2}' },
    ],
  },
  { role: 'assistant', content: 'Sunny, 21°C.' },
];
const call = (normalize: (a: ReturnType<typeof ReviewDecisionSchema.parse>) => unknown) =>
  structuredCompletion({
    client: createOpenAIClient(config.llm),
    model: config.llm.reviewerModel,
    schemaName: 'review_decision',
    schema: ReviewDecisionSchema,
    normalize,
    messages: reviewerMessages({ session: { app: 'a', user: 'u', sessionId: 's' }, transcript, existingSkills: [] }),
  });

describe('reviewer answer normalisation on the reviewer call path', () => {
  it('returns the normalised answer (trimmed, with its drop list)', async () => {
    const decision = (await call(normalizeReviewDecision)).value as ReturnType<typeof normalizeReviewDecision>;
    expect(decision.creates.length).toBe(1);
    expect(decision.dropped).toEqual([]);
    for (const text of [decision.creates[0]!.name, decision.creates[0]!.description, decision.creates[0]!.when_to_use, ...decision.creates[0]!.steps]) {
      expect(text).toBe(text.trim());
    }
  });

  it('an answer the normalisation rejects (here: given a skip_reason beside its creates) is a retryable MalformedModelAnswer', async () => {
    const err = await call((answer) => normalizeReviewDecision({ ...answer, skip_reason: 'nothing new' })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: 'MalformedModelAnswer', nonRetryable: false });
    expect((err as Error).message).toMatch(/^review_decision: invalid reviewer answer: skip_reason cannot coexist/);
  });
});
