"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.detectRole = detectRole;
const http_util_1 = require("./http-util");
const chat_request_1 = require("./chat-request");
const ROLE_BY_SCHEMA_NAME = { review_decision: 'reviewer', reflection: 'reflector' };
const ROLE_BY_SYSTEM_LINE = [
    ['ROLE: skill-reviewer', 'reviewer'],
    ['ROLE: skill-reflector', 'reflector'],
];
/** The json_schema name decides; without one, the first system message's `ROLE:` line does. */
function detectRole(request) {
    const format = request.response_format;
    const schemaName = format?.type === 'json_schema' ? format.json_schema.name : undefined;
    if (schemaName !== undefined && ROLE_BY_SCHEMA_NAME[schemaName])
        return ROLE_BY_SCHEMA_NAME[schemaName];
    const system = request.messages.find((m) => m.role === 'system' || m.role === 'developer');
    const firstLine = system ? (0, chat_request_1.messageText)(system).trimStart() : '';
    const byLine = ROLE_BY_SYSTEM_LINE.find(([prefix]) => firstLine.startsWith(prefix));
    if (byLine)
        return byLine[1];
    if (schemaName !== undefined) {
        throw new http_util_1.HttpError(400, `the local model stand-in only answers json_schema "review_decision" or "reflection", got "${schemaName}"`, 'invalid_request_error', 'unsupported_schema', 'response_format.json_schema.name');
    }
    return 'other';
}
//# sourceMappingURL=roles.js.map