import { z } from 'zod';
import { INPUT_LIMITS } from '../input-limits';

export { INPUT_LIMITS } from '../input-limits';

const boundedString = (what: string) => z.string().max(INPUT_LIMITS.maxStringChars, `${what} longer than ${INPUT_LIMITS.maxStringChars} characters`);

/** An ISO-8601 timestamp with offset, e.g. 2026-11-29T10:00:00Z. */
export const IsoTimestampSchema = z.iso.datetime({ offset: true, message: 'timestamp must be an ISO-8601 date-time' });

export const ToolCallSchema = z.object({
  id: boundedString('tool call id').optional(),
  type: z.literal('function').optional(),
  function: z.object({
    name: boundedString('tool call function name').min(1, 'tool call function name must not be empty'),
    arguments: boundedString('tool call arguments').default(''),
  }),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/**
 * How deep a content part may nest (the part itself is level 1; OpenAI's parts use 2).
 * Checked without recursion, so a hostile 10,000-level part is a clear input error
 * instead of a stack overflow wherever the part is copied or serialized later.
 */
export const MAX_CONTENT_PART_DEPTH = 16;

/** Nesting depth of a JSON value (scalars 0), or MAX+1 as soon as it is exceeded; iterative. */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

const ContentPartSchema = z
  .object({ type: z.string(), text: boundedString('content part text').optional() })
  .loose()
  .superRefine((part, ctx) => {
    if (jsonDepthExceeds(part, MAX_CONTENT_PART_DEPTH)) ctx.addIssue({ code: 'custom', message: `content part nested deeper than ${MAX_CONTENT_PART_DEPTH} levels` });
  });

/** Text content, or the OpenAI content-part array (only text parts are kept for review). */
const MessageContentSchema = z.union([boundedString('message content'), z.array(ContentPartSchema), z.null()]);

/**
 * One session event: an OpenAI Chat Completions message plus an optional timestamp.
 * Unknown fields are dropped, not rejected, so platforms can send their raw messages.
 */
export const SessionEventSchema = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: MessageContentSchema.optional(),
  name: boundedString('message name').optional(),
  tool_calls: z.array(ToolCallSchema).max(INPUT_LIMITS.maxToolCalls, `more than ${INPUT_LIMITS.maxToolCalls} tool calls in one message`).optional(),
  tool_call_id: boundedString('tool_call_id').optional(),
  timestamp: IsoTimestampSchema.optional(),
});
export type SessionEvent = z.infer<typeof SessionEventSchema>;

export const SessionEventsSchema = z.array(SessionEventSchema).max(INPUT_LIMITS.maxEvents, `more than ${INPUT_LIMITS.maxEvents} events in one segment`);

export const OutcomeStatusSchema = z.enum(['success', 'partial', 'fail', 'agent_error']);
export type OutcomeStatus = z.infer<typeof OutcomeStatusSchema>;

/** The caller's verdict on the session (benchmark, user feedback, regression test). */
export const OutcomeSchema = z.object({
  status: OutcomeStatusSchema,
  score: z.number().min(0, 'outcome score must be in [0,1]').max(1, 'outcome score must be in [0,1]').optional(),
  notes: z.string().max(2000).optional(),
  evaluator: z.string().max(200).optional(),
  /** Tokens the session used, where the platform reports them (usage attribution averages them per skill). */
  tokens: z.number().int('outcome tokens must be an integer').nonnegative('outcome tokens must not be negative').optional(),
});
export type Outcome = z.infer<typeof OutcomeSchema>;

/** Plain text of a message's content: the parts that carry text, one per line (the reference's join). */
export function messageText(event: Pick<SessionEvent, 'content'>): string {
  const c = event.content;
  if (c == null) return '';
  if (typeof c === 'string') return c;
  return c.flatMap((part) => (typeof part.text === 'string' ? [part.text] : [])).join('\n');
}
