import { ApplicationFailure } from '@temporalio/activity';
import type OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { z } from 'zod';

export interface StructuredCall<S extends z.ZodType> {
  client: OpenAI;
  model: string;
  schemaName: string;
  schema: S;
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[];
  /** Aborts the HTTP request (activity cancellation). */
  signal?: AbortSignal;
}

/**
 * Chat Completions with a JSON-schema response format built from a zod schema.
 * A transport error propagates as is (Temporal retries it); an answer that is not JSON
 * or does not match the schema becomes a retryable `MalformedModelAnswer` failure with
 * the zod message, so the history says exactly what was wrong.
 */
export async function structuredCompletion<S extends z.ZodType>(call: StructuredCall<S>): Promise<z.output<S>> {
  const completion = await call.client.chat.completions.create({
    model: call.model,
    messages: call.messages,
    response_format: zodResponseFormat(call.schema, call.schemaName),
  }, { signal: call.signal });
  const content = completion.choices[0]?.message?.content ?? '';
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (e) {
    throw ApplicationFailure.retryable(`${call.schemaName}: the model's answer is not valid JSON (${(e as Error).message}); it began ${JSON.stringify(content.slice(0, 120))}`, 'MalformedModelAnswer');
  }
  const parsed = call.schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw ApplicationFailure.retryable(`${call.schemaName}: the model's answer does not match the schema: ${issues}`, 'MalformedModelAnswer');
  }
  return parsed.data;
}
