"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.answerFor = answerFor;
const chat_request_1 = require("./chat-request");
const http_util_1 = require("./http-util");
const json_schema_check_1 = require("./json-schema-check");
const reflector_1 = require("./reflector");
const reviewer_1 = require("./reviewer");
const PLAIN_TEXT_ANSWER = 'This is the local deterministic model stand-in. It answers only skill-reviewer (json_schema "review_decision") ' +
    'and skill-reflector (json_schema "reflection") requests; see infra/model-server/README.md.';
/** Computes the deterministic answer for a validated request; throws HttpError on contract violations. */
function answerFor(role, request) {
    const userPrompt = request.messages
        .filter((m) => m.role === 'user')
        .map(chat_request_1.messageText)
        .join('\n\n');
    switch (role) {
        case 'reviewer': {
            const { decision, sessionKey } = (0, reviewer_1.review)(userPrompt);
            return { content: conformingJson(decision, request), statsKey: sessionKey };
        }
        case 'reflector': {
            const { reflection, skillName } = (0, reflector_1.reflect)(userPrompt);
            return { content: conformingJson(reflection, request), statsKey: skillName };
        }
        case 'other':
            return {
                content: request.response_format?.type === 'json_object' ? JSON.stringify({ answer: PLAIN_TEXT_ANSWER }) : PLAIN_TEXT_ANSWER,
            };
    }
}
function conformingJson(value, request) {
    const format = request.response_format;
    const schema = format?.type === 'json_schema' ? format.json_schema.schema : undefined;
    if (schema) {
        const violation = (0, json_schema_check_1.checkAgainstSchema)(value, schema);
        if (violation) {
            throw new http_util_1.HttpError(500, `model-server bug: its own answer does not conform to response_format "${format?.type === 'json_schema' ? format.json_schema.name : ''}" ` +
                `at ${violation.path}: ${violation.message}`, 'server_error', 'nonconforming_answer');
        }
    }
    return JSON.stringify(value);
}
//# sourceMappingURL=answer.js.map