import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string = 'invalid_request_error',
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

/** The error envelope every OpenAI-compatible client knows how to read. */
export function openAiErrorBody(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.headersSent) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, openAiErrorBody(err.message, err.type, err.code, err.param));
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) {
      throw new HttpError(413, `request body is larger than ${MAX_BODY_BYTES} bytes`, 'invalid_request_error', 'body_too_large');
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON request body; an empty body is allowed only when `allowEmpty`. */
export async function readJsonBody(req: IncomingMessage, allowEmpty = false): Promise<unknown> {
  const text = await readBody(req);
  if (text.trim() === '') {
    if (allowEmpty) return {};
    throw new HttpError(400, 'request body is empty; expected a JSON object', 'invalid_request_error', 'invalid_json');
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `request body is not valid JSON: ${(e as Error).message}`, 'invalid_request_error', 'invalid_json');
  }
}
