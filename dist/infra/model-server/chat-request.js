"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChatRequestSchema = void 0;
exports.parseChatRequest = parseChatRequest;
exports.messageText = messageText;
exports.allMessagesText = allMessagesText;
const zod_1 = require("zod");
const http_util_1 = require("./http-util");
const ContentPartSchema = zod_1.z.object({ type: zod_1.z.string(), text: zod_1.z.string().optional() }).loose();
const MessageSchema = zod_1.z
    .object({
    role: zod_1.z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
    content: zod_1.z.union([zod_1.z.string(), zod_1.z.array(ContentPartSchema), zod_1.z.null()]).optional(),
    name: zod_1.z.string().optional(),
})
    .loose();
const JsonSchemaFormatSchema = zod_1.z.object({
    type: zod_1.z.literal('json_schema'),
    json_schema: zod_1.z
        .object({
        name: zod_1.z.string().min(1, 'json_schema.name must not be empty'),
        schema: zod_1.z.record(zod_1.z.string(), zod_1.z.unknown()).optional(),
        strict: zod_1.z.boolean().nullable().optional(),
        description: zod_1.z.string().optional(),
    })
        .loose(),
});
const ResponseFormatSchema = zod_1.z.union([
    zod_1.z.object({ type: zod_1.z.literal('text') }),
    zod_1.z.object({ type: zod_1.z.literal('json_object') }),
    JsonSchemaFormatSchema,
]);
/** The subset of a Chat Completions request this stand-in understands; unknown fields are ignored. */
exports.ChatRequestSchema = zod_1.z
    .object({
    model: zod_1.z.string().min(1, 'model must not be empty'),
    messages: zod_1.z.array(MessageSchema).min(1, 'messages must contain at least one message'),
    response_format: ResponseFormatSchema.optional(),
    stream: zod_1.z.boolean().nullable().optional(),
    n: zod_1.z.number().int().nullable().optional(),
})
    .loose();
function parseChatRequest(body) {
    const parsed = exports.ChatRequestSchema.safeParse(body);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const param = issue && issue.path.length > 0 ? issue.path.join('.') : null;
        const message = issue ? `${param ?? 'body'}: ${issue.message}` : 'invalid chat completion request';
        throw new http_util_1.HttpError(400, message, 'invalid_request_error', 'invalid_request', param);
    }
    const request = parsed.data;
    if (request.stream) {
        throw new http_util_1.HttpError(400, 'stream=true is not supported by the local model stand-in', 'invalid_request_error', 'unsupported_parameter', 'stream');
    }
    if (request.n != null && request.n !== 1) {
        throw new http_util_1.HttpError(400, 'only n=1 is supported by the local model stand-in', 'invalid_request_error', 'unsupported_parameter', 'n');
    }
    return request;
}
function messageText(message) {
    const c = message.content;
    if (c == null)
        return '';
    if (typeof c === 'string')
        return c;
    return c.map((part) => part.text ?? '').join('');
}
/** All message text, the haystack for fault markers and control-route `match`. */
function allMessagesText(request) {
    return request.messages.map(messageText).join('\n');
}
//# sourceMappingURL=chat-request.js.map