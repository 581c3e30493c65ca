"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LISTED_MODELS = void 0;
exports.startModelServer = startModelServer;
const node_http_1 = require("node:http");
const answer_1 = require("./answer");
const chat_request_1 = require("./chat-request");
const faults_1 = require("./faults");
const http_util_1 = require("./http-util");
const roles_1 = require("./roles");
const stats_1 = require("./stats");
/** Model ids listed by /v1/models; any model id is accepted by /v1/chat/completions. */
exports.LISTED_MODELS = ['evolution-local-reviewer', 'evolution-local-reflector'];
const STARTED_AT = Math.floor(Date.now() / 1000);
async function startModelServer(options = {}) {
    const host = options.host ?? '127.0.0.1';
    const faults = new faults_1.FaultInjector(options.defaultFault);
    const stats = new stats_1.Stats();
    const delays = new Set();
    let completionSeq = 0;
    const server = (0, node_http_1.createServer)((req, res) => {
        route(req, res).catch((err) => {
            if (err instanceof http_util_1.HttpError) {
                if (err.status < 500)
                    stats.recordRejected();
                (0, http_util_1.sendError)(res, err);
            }
            else {
                (0, http_util_1.sendError)(res, new http_util_1.HttpError(500, `model-server internal error: ${err?.message ?? String(err)}`, 'server_error', 'internal_error'));
            }
        });
    });
    async function route(req, res) {
        const path = new URL(req.url ?? '/', 'http://local').pathname.replace(/\/+$/, '') || '/';
        const method = req.method ?? 'GET';
        // Accept both `${url}/v1/...` and `${url}/...`, so a base URL without /v1 still works.
        const apiPath = path.startsWith('/v1/') ? path.slice(3) : path;
        if (path === '/health')
            return allow(method, ['GET'], () => (0, http_util_1.sendJson)(res, 200, { ok: true, build: process.env.MODEL_SERVER_BUILD ?? 'dev' }));
        if (apiPath === '/models')
            return allow(method, ['GET'], () => (0, http_util_1.sendJson)(res, 200, { object: 'list', data: exports.LISTED_MODELS.map(modelObject) }));
        if (apiPath.startsWith('/models/')) {
            return allow(method, ['GET'], () => (0, http_util_1.sendJson)(res, 200, modelObject(decodeURIComponent(apiPath.slice('/models/'.length)))));
        }
        if (apiPath === '/chat/completions') {
            if (method !== 'POST')
                throw methodNotAllowed(method, ['POST']);
            return chatCompletion(req, res);
        }
        if (path === '/_control/faults') {
            if (method === 'POST')
                return (0, http_util_1.sendJson)(res, 200, { ok: true, added: faults.addControlFault(await (0, http_util_1.readJsonBody)(req, true)) });
            if (method === 'DELETE')
                return (0, http_util_1.sendJson)(res, 200, { ok: true, ...faults.clear() });
            if (method === 'GET')
                return (0, http_util_1.sendJson)(res, 200, { pending: faults.pending() });
            throw methodNotAllowed(method, ['GET', 'POST', 'DELETE']);
        }
        if (path === '/_control/stats') {
            if (method === 'GET')
                return (0, http_util_1.sendJson)(res, 200, stats.snapshot());
            if (method === 'DELETE') {
                stats.reset();
                return (0, http_util_1.sendJson)(res, 200, { ok: true, build: process.env.MODEL_SERVER_BUILD ?? 'dev' });
            }
            throw methodNotAllowed(method, ['GET', 'DELETE']);
        }
        throw new http_util_1.HttpError(404, `no route ${method} ${path}`, 'invalid_request_error', 'unknown_url');
    }
    async function chatCompletion(req, res) {
        const request = (0, chat_request_1.parseChatRequest)(await (0, http_util_1.readJsonBody)(req));
        const role = (0, roles_1.detectRole)(request);
        // The answer is computed before a fault is chosen, so a prompt rejected with 400 never consumes a once-key.
        const answer = (0, answer_1.answerFor)(role, request);
        const fault = faults.choose((0, chat_request_1.allMessagesText)(request));
        stats.recordChat(role, answer.statsKey, fault?.mode);
        if (fault?.mode === 'slow') {
            const stillConnected = await delay(fault.delayMs, res);
            if (!stillConnected)
                return;
        }
        if (fault?.mode === 'http500') {
            return (0, http_util_1.sendJson)(res, 500, (0, http_util_1.openAiErrorBody)(`injected fault: HTTP 500 (${fault.source})`, 'server_error', 'injected_fault'));
        }
        const content = fault?.mode === 'malformed' ? (0, faults_1.malformed)(answer.content) : answer.content;
        (0, http_util_1.sendJson)(res, 200, completionBody(request, content, ++completionSeq, fault));
    }
    /** Resolves true after ms, or false as soon as the client hangs up or the server closes. */
    function delay(ms, res) {
        return new Promise((resolve) => {
            const finish = (connected) => {
                clearTimeout(timer);
                delays.delete(cancel);
                res.off('close', onClose);
                resolve(connected);
            };
            const cancel = () => finish(false);
            const onClose = () => finish(false);
            const timer = setTimeout(() => finish(true), ms);
            delays.add(cancel);
            res.on('close', onClose);
        });
    }
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 0, host, () => {
            server.off('error', reject);
            resolve();
        });
    });
    const port = server.address().port;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    let closing;
    return {
        url: `http://${urlHost}:${port}`,
        host,
        port,
        close() {
            closing ??= new Promise((resolve) => {
                for (const cancel of [...delays])
                    cancel();
                server.close(() => resolve());
                server.closeAllConnections();
            });
            return closing;
        },
    };
}
function allow(method, allowed, handler) {
    if (!allowed.includes(method))
        throw methodNotAllowed(method, allowed);
    handler();
}
function methodNotAllowed(method, allowed) {
    return new http_util_1.HttpError(405, `method ${method} not allowed here; use ${allowed.join(' or ')}`, 'invalid_request_error', 'method_not_allowed');
}
function modelObject(id) {
    return { id, object: 'model', created: STARTED_AT, owned_by: 'local-model-stand-in' };
}
function completionBody(request, content, seq, fault) {
    const promptChars = (0, chat_request_1.allMessagesText)(request).length;
    const promptTokens = Math.ceil(promptChars / 4);
    const completionTokens = Math.ceil(content.length / 4);
    return {
        id: `chatcmpl-local-${String(seq).padStart(6, '0')}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        system_fingerprint: fault ? `model-server-stand-in+fault-${fault.mode}` : 'model-server-stand-in',
        choices: [
            {
                index: 0,
                message: { role: 'assistant', content, refusal: null },
                logprobs: null,
                finish_reason: 'stop',
            },
        ],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    };
}
//# sourceMappingURL=server.js.map