"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.OutcomeSchema = exports.OutcomeStatusSchema = exports.SessionEventsSchema = exports.SessionEventSchema = exports.ToolCallSchema = exports.IsoTimestampSchema = void 0;
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
/** Text content, or the OpenAI content-part array (only text parts are kept for review). */
const MessageContentSchema = zod_1.z.union([
    zod_1.z.string(),
    zod_1.z.array(zod_1.z.object({ type: zod_1.z.string(), text: zod_1.z.string().optional() }).loose()),
    zod_1.z.null(),
]);
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
/** Plain text of a message's content (text parts joined). */
function messageText(event) {
    const c = event.content;
    if (c == null)
        return '';
    if (typeof c === 'string')
        return c;
    return c.map((part) => part.text ?? '').join('');
}
//# sourceMappingURL=session.js.map