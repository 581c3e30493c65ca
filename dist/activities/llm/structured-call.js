"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.structuredCompletion = structuredCompletion;
const activity_1 = require("@temporalio/activity");
const zod_1 = require("openai/helpers/zod");
/**
 * Chat Completions with a JSON-schema response format built from a zod schema.
 * A transport error propagates as is (Temporal retries it); an answer that is not JSON
 * or does not match the schema becomes a retryable `MalformedModelAnswer` failure with
 * the zod message, so the history says exactly what was wrong. So does an answer that
 * `normalize` rejects (a contradiction the schema cannot express).
 */
async function structuredCompletion(call) {
    const completion = await call.client.chat.completions.create({
        model: call.model,
        messages: call.messages,
        response_format: (0, zod_1.zodResponseFormat)(call.schema, call.schemaName),
    }, { signal: call.signal });
    const content = completion.choices[0]?.message?.content ?? '';
    let json;
    try {
        json = JSON.parse(content);
    }
    catch (e) {
        throw activity_1.ApplicationFailure.retryable(`${call.schemaName}: the model's answer is not valid JSON (${e.message}); it began ${JSON.stringify(content.slice(0, 120))}`, 'MalformedModelAnswer');
    }
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
        throw activity_1.ApplicationFailure.retryable(`${call.schemaName}: the model's answer does not match the schema: ${issues}`, 'MalformedModelAnswer');
    }
    if (!call.normalize)
        return parsed.data;
    try {
        return call.normalize(parsed.data);
    }
    catch (e) {
        throw activity_1.ApplicationFailure.retryable(`${call.schemaName}: ${e.message}`, 'MalformedModelAnswer');
    }
}
//# sourceMappingURL=structured-call.js.map