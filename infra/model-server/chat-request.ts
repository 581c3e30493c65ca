import { z } from 'zod';
import { HttpError } from './http-util';

const ContentPartSchema = z.object({ type: z.string(), text: z.string().optional() }).loose();

const MessageSchema = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
    content: z.union([z.string(), z.array(ContentPartSchema), z.null()]).optional(),
    name: z.string().optional(),
  })
  .loose();

const JsonSchemaFormatSchema = z.object({
  type: z.literal('json_schema'),
  json_schema: z
    .object({
      name: z.string().min(1, 'json_schema.name must not be empty'),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
      description: z.string().optional(),
    })
    .loose(),
});

const ResponseFormatSchema = z.union([z.object({ type: z.literal('text') }), z.object({ type: z.literal('json_object') }), JsonSchemaFormatSchema]);

/** The subset of a Chat Completions request this stand-in understands; unknown fields are ignored. */
export const ChatRequestSchema = z
  .object({
    model: z.string().min(1, 'model must not be empty'),
    messages: z.array(MessageSchema).min(1, 'messages must contain at least one message'),
    response_format: ResponseFormatSchema.optional(),
    stream: z.boolean().nullable().optional(),
    n: z.number().int().nullable().optional(),
  })
  .loose();

export type ChatRequest = z.infer<typeof ChatRequestSchema>;
export type ChatMessage = ChatRequest['messages'][number];

export function parseChatRequest(body: unknown): ChatRequest {
  const parsed = ChatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue && issue.path.length > 0 ? issue.path.join('.') : null;
    const message = issue ? `${param ?? 'body'}: ${issue.message}` : 'invalid chat completion request';
    throw new HttpError(400, message, 'invalid_request_error', 'invalid_request', param);
  }
  const request = parsed.data;
  if (request.stream) {
    throw new HttpError(400, 'stream=true is not supported by the local model stand-in', 'invalid_request_error', 'unsupported_parameter', 'stream');
  }
  if (request.n != null && request.n !== 1) {
    throw new HttpError(400, 'only n=1 is supported by the local model stand-in', 'invalid_request_error', 'unsupported_parameter', 'n');
  }
  return request;
}

export function messageText(message: ChatMessage): string {
  const c = message.content;
  if (c == null) return '';
  if (typeof c === 'string') return c;
  return c.map((part) => part.text ?? '').join('');
}

/** All message text, the haystack for fault markers and control-route `match`. */
export function allMessagesText(request: ChatRequest): string {
  return request.messages.map(messageText).join('\n');
}
