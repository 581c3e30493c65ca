import { ApplicationFailure } from '@temporalio/activity';
import type OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { z } from 'zod';

export interface StructuredCall<S extends z.ZodType, T = z.output<S>> {
  client: OpenAI;
  model: string;
  schemaName: string;
  schema: S;
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[];
  /** Aborts the HTTP request (activity cancellation). */
  signal?: AbortSignal;
  /** Pure clean-up and semantic checks of a schema-valid answer; whatever it throws makes the answer malformed. */
  normalize?: (answer: z.output<S>) => T;
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
 * Chat Completions with a JSON-schema response format built from a zod schema.
 * A transport error propagates as is (Temporal retries it); an answer that is not JSON
 * or does not match the schema becomes a retryable `MalformedModelAnswer` failure with
 * the zod message, so the history says exactly what was wrong. So does an answer that
 * `normalize` rejects (a contradiction the schema cannot express).
 */
export async function structuredCompletion<S extends z.ZodType, T = z.output<S>>(call: StructuredCall<S, T>): Promise<T> {
  const completion = await call.client.chat.completions.create(
    {
      model: call.model,
      messages: call.messages,
      response_format: responseFormatOf(call.schema, call.schemaName),
    },
    { signal: call.signal },
  );
  const content = completion.choices[0]?.message?.content ?? '';
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (e) {
    throw ApplicationFailure.retryable(
      `${call.schemaName}: the model's answer is not valid JSON (${(e as Error).message}); it began ${JSON.stringify(content.slice(0, 120))}`,
      'MalformedModelAnswer',
    );
  }
  const parsed = call.schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw ApplicationFailure.retryable(`${call.schemaName}: the model's answer does not match the schema: ${issues}`, 'MalformedModelAnswer');
  }
  if (!call.normalize) return parsed.data as T;
  try {
    return call.normalize(parsed.data);
  } catch (e) {
    throw ApplicationFailure.retryable(`${call.schemaName}: ${(e as Error).message}`, 'MalformedModelAnswer');
  }
}
