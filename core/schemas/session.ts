import { z } from 'zod';

/** An ISO-8601 timestamp with offset, e.g. 2026-11-29T10:00:00Z. */
export const IsoTimestampSchema = z.iso.datetime({ offset: true, message: 'timestamp must be an ISO-8601 date-time' });

export const ToolCallSchema = z.object({
  id: z.string().optional(),
  type: z.literal('function').optional(),
  function: z.object({
    name: z.string().min(1, 'tool call function name must not be empty'),
    arguments: z.string().default(''),
  }),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** Text content, or the OpenAI content-part array (only text parts are kept for review). */
const MessageContentSchema = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional() }).loose()),
  z.null(),
]);

/**
 * One session event: an OpenAI Chat Completions message plus an optional timestamp.
 * Unknown fields are dropped, not rejected, so platforms can send their raw messages.
 */
export const SessionEventSchema = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: MessageContentSchema.optional(),
  name: z.string().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  tool_call_id: z.string().optional(),
  timestamp: IsoTimestampSchema.optional(),
});
export type SessionEvent = z.infer<typeof SessionEventSchema>;

export const SessionEventsSchema = z.array(SessionEventSchema);

export const OutcomeStatusSchema = z.enum(['success', 'partial', 'fail', 'agent_error']);
export type OutcomeStatus = z.infer<typeof OutcomeStatusSchema>;

/** The caller's verdict on the session (benchmark, user feedback, regression test). */
export const OutcomeSchema = z.object({
  status: OutcomeStatusSchema,
  score: z.number().min(0, 'outcome score must be in [0,1]').max(1, 'outcome score must be in [0,1]').optional(),
  notes: z.string().max(2000).optional(),
  evaluator: z.string().max(200).optional(),
});
export type Outcome = z.infer<typeof OutcomeSchema>;

/** Plain text of a message's content (text parts joined). */
export function messageText(event: Pick<SessionEvent, 'content'>): string {
  const c = event.content;
  if (c == null) return '';
  if (typeof c === 'string') return c;
  return c.map((part) => part.text ?? '').join('');
}
