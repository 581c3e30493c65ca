/**
 * The one structured model call (activities/llm/structured-call.ts) against endpoints that
 * refuse response formats, over HTTP to the local stand-in: it falls back json_schema →
 * json_object → plain instructions, remembers per endpoint and model what was accepted (a
 * refusal is paid once per process), and records the format and every repair.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../../activities/llm/openai-client';
import { reviewerMessages } from '../../activities/llm/reviewer-prompt';
import { forgetAcceptedFormats, structuredCompletion } from '../../activities/llm/structured-call';
import { buildReflectionMessages, nameNamelessUpdateSpecs, normalizeReviewDecision, ReflectionAnswerSchema, ReviewDecisionSchema } from '../../core';
import { fillReflectionAnswer } from '../../core/gepa/reflection-answer-repair';
import { startModelServer, type RunningModelServer } from '../../infra/model-server/server';

let server: RunningModelServer;
beforeAll(async () => {
  server = await startModelServer({ port: 0 });
  forgetAcceptedFormats();
});
afterAll(async () => server?.close());

const client = () => createOpenAIClient({ baseURL: `${server.url}/v1`, apiKey: 'x', reviewerModel: '', reflectorModel: '', timeoutMs: 30_000 });
const rejected = async () => ((await (await fetch(`${server.url}/_control/stats`)).json()) as { rejected: number }).rejected;

const transcript = [
  { role: 'user', content: 'Report the weather for Paris.' },
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
const review = (model: string) =>
  structuredCompletion({
    client: client(),
    model,
    schemaName: 'review_decision',
    schema: ReviewDecisionSchema,
    prepare: nameNamelessUpdateSpecs,
    normalize: normalizeReviewDecision,
    messages: reviewerMessages({ session: { app: 'a', user: 'u', sessionId: 's' }, transcript, existingSkills: [] }),
  });

describe('structuredCompletion on endpoints that refuse response formats', () => {
  it('a strict endpoint answers in json_schema with no repair', async () => {
    const { record } = await review('evolution-local-reviewer');
    expect(record).toMatchObject({ format: 'json_schema', repairs: [] });
  });

  it('json_schema refused: the same call asks again in json_object mode, and later calls go straight there', async () => {
    const before = await rejected();
    const first = await review('evolution-local-reviewer-nonstrict');
    expect(await rejected()).toBe(before + 1);
    expect(first.record.format).toBe('json_object');
    expect(first.record.repairs).toEqual([
      { kind: 'format_json_object' },
      { kind: 'code_fence' },
      { kind: 'prose_around_json' },
      { kind: 'trailing_comma' },
      ...['skip_reason', 'creates[0].pitfalls', 'updates', 'deletions'].map((path) => ({ kind: 'missing_optional_key', path })),
    ]);
    const second = await review('evolution-local-reviewer-nonstrict');
    expect(await rejected()).toBe(before + 1);
    expect(second).toEqual(first);
    // The strict answer, repaired, is the same decision.
    expect(first.value).toEqual((await review('evolution-local-reviewer')).value);
  });

  it('json_object refused too: plain instructions carry the schema, and the answer is repaired the same way', async () => {
    const before = await rejected();
    const { value, record } = await review('evolution-local-reviewer-plain');
    expect(await rejected()).toBe(before + 2);
    expect(record.format).toBe('plain');
    expect(record.repairs[0]).toEqual({ kind: 'format_plain' });
    expect(value.creates.map((c) => c.name)).toEqual(['geocode-and-get-weather']);
  });

  it('the reflector on a non-strict model: the missing component is the one requested, a missing rationale blank', async () => {
    const spec = { name: 'k', description: 'd', when_to_use: 'w', steps: ['s'], pitfalls: [] };
    const { value, record } = await structuredCompletion({
      client: client(),
      model: 'evolution-local-reflector-nonstrict',
      schemaName: 'reflection',
      schema: ReflectionAnswerSchema,
      prepare: (json) => fillReflectionAnswer(json, 'pitfalls'),
      messages: buildReflectionMessages({
        spec,
        component: 'pitfalls',
        records: [{ case: { id: 'c1', input: 'x', critical: false }, evaluation: { caseId: 'c1', score: 0.2, feedback: 'missing: say hi' } }],
      }),
    });
    expect(value).toEqual({ component: 'pitfalls', new_value: ['Do not forget to say hi.'], rationale: '' });
    expect(record.repairs).toEqual([
      { kind: 'format_json_object' },
      { kind: 'code_fence' },
      { kind: 'prose_around_json' },
      { kind: 'trailing_comma' },
      { kind: 'requested_component', path: 'component' },
      { kind: 'missing_optional_key', path: 'rationale' },
    ]);
  });
});
