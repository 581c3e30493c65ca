"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.OutcomeSchema = exports.OutcomeStatusSchema = exports.SessionEventsSchema = exports.SessionEventSchema = exports.MAX_CONTENT_PART_DEPTH = exports.ToolCallSchema = exports.IsoTimestampSchema = void 0;
exports.jsonDepthExceeds = jsonDepthExceeds;
exports.messageText = messageText;
const zod_1 = require("zod");
/** An ISO-8601 timestamp with offset, e.g. 2026-11-29T10:00:00Z. */
exports.IsoTimestampSchema = zod_1.z.iso.datetime({ offset: true, message: 'timestamp must be an ISO-8601 date-time' });
exports.ToolCallSchema = zod_1.z.object({
    id: zod_1.z.string().optional(),
    type: zod_1.z.literal('function').optional(),
    function: zod_1.z.object({
        name: zod_1.z.string().min(1, 'tool call function name must not be empty'),
        arguments: zod_1.z.string().default(''),
    }),
});
/**
 * How deep a content part may nest (the part itself is level 1; OpenAI's parts use 2).
 * Checked without recursion, so a hostile 10,000-level part is a clear input error
 * instead of a stack overflow wherever the part is copied or serialized later.
 */
exports.MAX_CONTENT_PART_DEPTH = 16;
/** Nesting depth of a JSON value (scalars 0), or MAX+1 as soon as it is exceeded; iterative. */
function jsonDepthExceeds(value, max) {
    const stack = [[value, 0]];
    while (stack.length > 0) {
        const [v, depth] = stack.pop();
        if (v === null || typeof v !== 'object')
            continue;
        if (depth + 1 > max)
            return true;
        for (const child of Array.isArray(v) ? v : Object.values(v))
            if (child !== null && typeof child === 'object')
                stack.push([child, depth + 1]);
    }
    return false;
}
const ContentPartSchema = zod_1.z
    .object({ type: zod_1.z.string(), text: zod_1.z.string().optional() })
    .loose()
    .superRefine((part, ctx) => {
    if (jsonDepthExceeds(part, exports.MAX_CONTENT_PART_DEPTH))
        ctx.addIssue({ code: 'custom', message: `content part nested deeper than ${exports.MAX_CONTENT_PART_DEPTH} levels` });
});
/** Text content, or the OpenAI content-part array (only text parts are kept for review). */
const MessageContentSchema = zod_1.z.union([zod_1.z.string(), zod_1.z.array(ContentPartSchema), zod_1.z.null()]);
/**
 * One session event: an OpenAI Chat Completions message plus an optional timestamp.
 * Unknown fields are dropped, not rejected, so platforms can send their raw messages.
 */
exports.SessionEventSchema = zod_1.z.object({
    role: zod_1.z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
    content: MessageContentSchema.optional(),
    name: zod_1.z.string().optional(),
    tool_calls: zod_1.z.array(exports.ToolCallSchema).optional(),
    tool_call_id: zod_1.z.string().optional(),
    timestamp: exports.IsoTimestampSchema.optional(),
});
exports.SessionEventsSchema = zod_1.z.array(exports.SessionEventSchema);
exports.OutcomeStatusSchema = zod_1.z.enum(['success', 'partial', 'fail', 'agent_error']);
/** The caller's verdict on the session (benchmark, user feedback, regression test). */
exports.OutcomeSchema = zod_1.z.object({
    status: exports.OutcomeStatusSchema,
    score: zod_1.z.number().min(0, 'outcome score must be in [0,1]').max(1, 'outcome score must be in [0,1]').optional(),
    notes: zod_1.z.string().max(2000).optional(),
    evaluator: zod_1.z.string().max(200).optional(),
});
/** Plain text of a message's content: the parts that carry text, one per line (the reference's join). */
function messageText(event) {
    const c = event.content;
    if (c == null)
        return '';
    if (typeof c === 'string')
        return c;
    return c.flatMap((part) => (typeof part.text === 'string' ? [part.text] : [])).join('\n');
}
//# sourceMappingURL=session.js.map