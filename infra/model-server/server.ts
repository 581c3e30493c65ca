import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerFor, type Answer } from './answer';
import { refusedFormat, styleOf, type AnswerStyle } from './answer-style';
import { allMessagesText, parseChatRequest, type ChatRequest } from './chat-request';
import { FaultInjector, malformed, type Fault, type RunFault } from './faults';
import { HttpError, openAiErrorBody, readJsonBody, sendError, sendJson } from './http-util';
import { detectRole } from './roles';
import { Stats } from './stats';

export interface ModelServerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  defaultFault?: RunFault;
  /** How every request is answered unless its model name says otherwise (answer-style.ts). Default strict. */
  style?: AnswerStyle;
}

export interface RunningModelServer {
  /** e.g. http://127.0.0.1:8787 — the OpenAI base URL is `${url}/v1`. */
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

/** Model ids listed by /v1/models; any model id is accepted by /v1/chat/completions. */
export const LISTED_MODELS = ['evolution-local-reviewer', 'evolution-local-reflector'];
const STARTED_AT = Math.floor(Date.now() / 1000);

export async function startModelServer(options: ModelServerOptions = {}): Promise<RunningModelServer> {
  const host = options.host ?? '127.0.0.1';
  const faults = new FaultInjector(options.defaultFault);
  const stats = new Stats();
  const delays = new Set<() => void>();
  let completionSeq = 0;

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) {
        if (err.status < 500) stats.recordRejected();
        sendError(res, err);
      } else {
        sendError(res, new HttpError(500, `model-server internal error: ${(err as Error)?.message ?? String(err)}`, 'server_error', 'internal_error'));
      }
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://local').pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    // Accept both `${url}/v1/...` and `${url}/...`, so a base URL without /v1 still works.
    const apiPath = path.startsWith('/v1/') ? path.slice(3) : path;

    if (path === '/health') return allow(method, ['GET'], () => sendJson(res, 200, { ok: true, build: process.env.MODEL_SERVER_BUILD ?? 'dev' }));
    if (apiPath === '/models') return allow(method, ['GET'], () => sendJson(res, 200, { object: 'list', data: LISTED_MODELS.map(modelObject) }));
    if (apiPath.startsWith('/models/')) {
      return allow(method, ['GET'], () => sendJson(res, 200, modelObject(decodeURIComponent(apiPath.slice('/models/'.length)))));
    }
    if (apiPath === '/chat/completions') {
      if (method !== 'POST') throw methodNotAllowed(method, ['POST']);
      return chatCompletion(req, res);
    }
    if (path === '/_control/faults') {
      if (method === 'POST') return sendJson(res, 200, { ok: true, added: faults.addControlFault(await readJsonBody(req, true)) });
      if (method === 'DELETE') return sendJson(res, 200, { ok: true, ...faults.clear() });
      if (method === 'GET') return sendJson(res, 200, { pending: faults.pending() });
      throw methodNotAllowed(method, ['GET', 'POST', 'DELETE']);
    }
    if (path === '/_control/stats') {
      if (method === 'GET') return sendJson(res, 200, stats.snapshot());
      if (method === 'DELETE') {
        stats.reset();
        return sendJson(res, 200, { ok: true, build: process.env.MODEL_SERVER_BUILD ?? 'dev' });
      }
      throw methodNotAllowed(method, ['GET', 'DELETE']);
    }
    if (path === '/_control/prompts') {
      if (method !== 'GET') throw methodNotAllowed(method, ['GET']);
      const key = new URL(req.url ?? '/', 'http://local').searchParams.get('key') ?? '';
      const prompt = stats.lastPrompt(key);
      return prompt === undefined ? sendJson(res, 404, { error: `no request recorded for ${JSON.stringify(key)}` }) : sendJson(res, 200, { key, prompt });
    }
    throw new HttpError(404, `no route ${method} ${path}`, 'invalid_request_error', 'unknown_url');
  }

  async function chatCompletion(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = parseChatRequest(await readJsonBody(req));
    const style = styleOf(request.model, options.style);
    const refusal = refusedFormat(style, request.response_format?.type);
    if (refusal) throw refusal;
    const role = detectRole(request);
    // The answer is computed before a fault is chosen, so a prompt rejected with 400 never consumes a once-key.
    const answer = answerFor(role, request, style);
    const fault = faults.choose(allMessagesText(request));
    stats.recordChat(role, answer.statsKey, fault?.mode);
    if (answer.statsKey !== undefined) stats.recordPrompt(answer.statsKey, allMessagesText(request));

    if (fault?.mode === 'slow') {
      const stillConnected = await delay(fault.delayMs, res);
      if (!stillConnected) return;
    }
    if (fault?.mode === 'http500') {
      return sendJson(res, 500, openAiErrorBody(`injected fault: HTTP 500 (${fault.source})`, 'server_error', 'injected_fault'));
    }
    const content = fault?.mode === 'malformed' && answer.content !== null ? malformed(answer.content) : answer.content;
    sendJson(res, 200, completionBody(request, { content, toolCall: answer.toolCall }, ++completionSeq, fault));
  }

  /** Resolves true after ms, or false as soon as the client hangs up or the server closes. */
  function delay(ms: number, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (connected: boolean) => {
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

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const cancel of [...delays]) cancel();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function allow(method: string, allowed: string[], handler: () => void): void {
  if (!allowed.includes(method)) throw methodNotAllowed(method, allowed);
  handler();
}

function methodNotAllowed(method: string, allowed: string[]): HttpError {
  return new HttpError(405, `method ${method} not allowed here; use ${allowed.join(' or ')}`, 'invalid_request_error', 'method_not_allowed');
}

function modelObject(id: string) {
  return { id, object: 'model', created: STARTED_AT, owned_by: 'local-model-stand-in' };
}

function completionBody(request: ChatRequest, answer: Pick<Answer, 'content' | 'toolCall'>, seq: number, fault: Fault | undefined) {
  const { content, toolCall } = answer;
  const tools = (request as { tools?: unknown }).tools;
  const promptChars = allMessagesText(request).length + (tools ? JSON.stringify(tools).length : 0);
  const promptTokens = Math.ceil(promptChars / 4);
  const completionTokens = Math.ceil((content ?? JSON.stringify(toolCall ?? '')).length / 4);
  const toolCalls = toolCall ? [{ id: toolCall.id, type: 'function', function: { name: toolCall.name, arguments: toolCall.arguments } }] : undefined;
  return {
    id: `chatcmpl-local-${String(seq).padStart(6, '0')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    system_fingerprint: fault ? `model-server-stand-in+fault-${fault.mode}` : 'model-server-stand-in',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}
