"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HttpError = exports.MAX_BODY_BYTES = void 0;
exports.openAiErrorBody = openAiErrorBody;
exports.sendJson = sendJson;
exports.sendError = sendError;
exports.readBody = readBody;
exports.readJsonBody = readJsonBody;
exports.MAX_BODY_BYTES = 8 * 1024 * 1024;
class HttpError extends Error {
    status;
    type;
    code;
    param;
    constructor(status, message, type = 'invalid_request_error', code = null, param = null) {
        super(message);
        this.status = status;
        this.type = type;
        this.code = code;
        this.param = param;
    }
}
exports.HttpError = HttpError;
/** The error envelope every OpenAI-compatible client knows how to read. */
function openAiErrorBody(message, type, code, param = null) {
    return { error: { message, type, param, code } };
}
function sendJson(res, status, body) {
    if (res.destroyed || res.headersSent)
        return;
    const payload = JSON.stringify(body);
    res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(payload),
    });
    res.end(payload);
}
function sendError(res, err) {
    sendJson(res, err.status, openAiErrorBody(err.message, err.type, err.code, err.param));
}
async function readBody(req) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        const buf = chunk;
        size += buf.length;
        if (size > exports.MAX_BODY_BYTES) {
            throw new HttpError(413, `request body is larger than ${exports.MAX_BODY_BYTES} bytes`, 'invalid_request_error', 'body_too_large');
        }
        chunks.push(buf);
    }
    return Buffer.concat(chunks).toString('utf8');
}
/** Parses a JSON request body; an empty body is allowed only when `allowEmpty`. */
async function readJsonBody(req, allowEmpty = false) {
    const text = await readBody(req);
    if (text.trim() === '') {
        if (allowEmpty)
            return {};
        throw new HttpError(400, 'request body is empty; expected a JSON object', 'invalid_request_error', 'invalid_json');
    }
    try {
        return JSON.parse(text);
    }
    catch (e) {
        throw new HttpError(400, `request body is not valid JSON: ${e.message}`, 'invalid_request_error', 'invalid_json');
    }
}
//# sourceMappingURL=http-util.js.map