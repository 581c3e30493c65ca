import { ApplicationFailure } from '@temporalio/activity';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { z } from 'zod';
import { MALFORMED_MODEL_ANSWER } from '../../core/failure-types';
import {
  formatRepair,
  isResponseFormatRefusal,
  jsonFromModelText,
  missingDefaultedKeys,
  nextFormatLevel,
  type AnswerRepair,
  type ModelAnswerRecord,
  type ResponseFormatLevel,
} from '../../core/llm';

export interface StructuredCall<S extends z.ZodType, T = z.output<S>> {
  client: OpenAI;
  model: string;
  schemaName: string;
  schema: S;
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[];
  /** Aborts the HTTP request (activity cancellation). */
  signal?: AbortSignal;
  /**
   * Pure structural tolerances applied to the answer's JSON before the schema check (e.g. an
   * update's nameless new_spec takes the update's name); each one it applies is a repair.
   */
  prepare?: (json: unknown) => { value: unknown; repairs: AnswerRepair[] };
  /** Pure clean-up and semantic checks of a schema-valid answer; whatever it throws makes the answer malformed. */
  normalize?: (answer: z.output<S>) => T;
}

export interface StructuredAnswer<T> {
  value: T;
  /**
   * How it was obtained: the response format it came in, what was done to make it usable
   * (in order; empty for a strict answer), and the tokens the endpoint reported for the
   * answering request (a refused one reports none).
   */
  record: ModelAnswerRecord;
}

// Converting a zod schema to JSON Schema costs milliseconds of CPU; the schemas are constants, so once each.
const responseFormats = new WeakMap<z.ZodType, Map<string, ReturnType<typeof zodResponseFormat>>>();
function responseFormatOf(schema: z.ZodType, name: string): ReturnType<typeof zodResponseFormat> {
  let byName = responseFormats.get(schema);
  if (!byName) responseFormats.set(schema, (byName = new Map()));
  let format = byName.get(name);
  if (!format) byName.set(name, (format = zodResponseFormat(schema, name)));
  return format;
}

/**
 * The most constrained response format each endpoint and model accepted, for the life of
 * the process: once an endpoint refuses json_schema, later calls go straight to what it
 * takes instead of paying the refusal again.
 */
const acceptedFormat = new Map<string, ResponseFormatLevel>();
const endpointKey = (client: OpenAI, model: string) => `${client.baseURL}\u0000${model}`;

/** Forgets what endpoints refused (tests that reuse a model name on a server that changed). */
export function forgetAcceptedFormats(): void {
  acceptedFormat.clear();
}

/**
 * The ONE structured model call: Chat Completions asking for JSON that matches a zod
 * schema, working with any OpenAI-compatible endpoint.
 *
 * - Format: `json_schema` (strict) first; an endpoint that refuses it (a 4xx naming the
 *   response format) is asked again at once in `json_object` mode, then with plain
 *   instructions, the JSON Schema written into the system message; the level it accepts
 *   is remembered per endpoint and model for the process.
 * - Answer: tolerant as the reference is (core/llm): a code fence, prose around the
 *   object, trailing commas, optional keys left out, and what `prepare` repairs. Every
 *   tolerance used is returned in `repairs`, for the caller to record.
 * - Errors: a transport error propagates as is (Temporal retries it); an answer that is
 *   not JSON even so, does not match the schema, or that `normalize` rejects becomes a
 *   retryable `MalformedModelAnswer` failure saying exactly what was wrong.
 */
export async function structuredCompletion<S extends z.ZodType, T = z.output<S>>(call: StructuredCall<S, T>): Promise<StructuredAnswer<T>> {
  const key = endpointKey(call.client, call.model);
  let level = acceptedFormat.get(key) ?? 'json_schema';
  let completion: OpenAI.Chat.Completions.ChatCompletion;
  for (;;) {
    try {
      completion = await call.client.chat.completions.create(requestAt(level, call), { signal: call.signal });
      break;
    } catch (e) {
      const next = nextFormatLevel(level);
      if (!(e instanceof OpenAI.APIError) || !next || !isResponseFormatRefusal({ status: e.status, message: e.message, param: e.param })) throw e;
      acceptedFormat.set(key, (level = next));
    }
  }
  const usage = completion.usage ? { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens } : {};
  const repairs: AnswerRepair[] = [];
  const fallback = formatRepair(level);
  if (fallback) repairs.push(fallback);

  const content = completion.choices[0]?.message?.content ?? '';
  const extracted = jsonFromModelText(content);
  if (!extracted.ok) {
    throw ApplicationFailure.retryable(
      `${call.schemaName}: the model's answer is not valid JSON (${extracted.error}); it began ${JSON.stringify(content.slice(0, 120))}`,
      MALFORMED_MODEL_ANSWER,
    );
  }
  repairs.push(...extracted.repairs);
  let json = extracted.value;
  if (call.prepare) {
    const prepared = call.prepare(json);
    json = prepared.value;
    repairs.push(...prepared.repairs);
  }
  const parsed = call.schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw ApplicationFailure.retryable(`${call.schemaName}: the model's answer does not match the schema: ${issues}`, MALFORMED_MODEL_ANSWER);
  }
  repairs.push(...missingDefaultedKeys(call.schema, json));
  let value: T;
  try {
    value = call.normalize ? call.normalize(parsed.data) : (parsed.data as T);
  } catch (e) {
    throw ApplicationFailure.retryable(`${call.schemaName}: ${(e as Error).message}`, MALFORMED_MODEL_ANSWER);
  }
  return { value, record: { format: level, repairs, ...usage } };
}

function requestAt<S extends z.ZodType, T>(level: ResponseFormatLevel, call: StructuredCall<S, T>): OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming {
  const format = responseFormatOf(call.schema, call.schemaName);
  if (level === 'json_schema') return { model: call.model, messages: call.messages, response_format: format };
  const messages = withSchemaInstructions(call.messages, call.schemaName, format.json_schema.schema);
  return { model: call.model, messages, ...(level === 'json_object' ? { response_format: { type: 'json_object' as const } } : {}) };
}

/**
 * Without json_schema the endpoint does not know the schema: it goes into the first system
 * message (one system message first, as strict chat templates require), with the
 * instruction to answer with the object alone.
 */
function withSchemaInstructions(
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
  name: string,
  schema: unknown,
): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
  const instructions = `Answer with one JSON object only (no prose, no code fence), the "${name}" object described by this JSON Schema:\n${JSON.stringify(schema)}`;
  const first = messages[0];
  if (first?.role === 'system' && typeof first.content === 'string') return [{ ...first, content: `${first.content}\n\n${instructions}` }, ...messages.slice(1)];
  return [{ role: 'system', content: instructions }, ...messages];
}
