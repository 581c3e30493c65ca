import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** What the OpenAI client hands its `fetch`: a URL and an init with a string or byte body. */
export type FetchLike = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const DECODERS: Record<string, (b: Buffer) => Buffer> = { gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync };

/**
 * `fetch` for the OpenAI client on node:http(s) with one keep-alive agent, instead of the
 * global fetch (undici): a model call costs the worker about a third less CPU (web streams
 * and undici's bookkeeping for a body it reads whole anyway). It does what the client needs
 * and no more: string or byte request bodies, the abort signal, the answer buffered whole
 * (the reviewer never streams), content-encoding decoded; no redirects followed. `ca`
 * trusts a private CA for an https endpoint.
 */
export function createNodeFetch(options: { ca?: string } = {}): FetchLike {
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) });
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') throw new TypeError(`model endpoint fetch: unsupported protocol ${url.protocol}`);
    const body = requestBody(init.body);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    if (body && headers['content-length'] === undefined) headers['content-length'] = String(body.byteLength);
    const method = (init.method ?? 'GET').toUpperCase();
    return await new Promise<Response>((resolve, reject) => {
      const req = (secure ? httpsRequest : httpRequest)(url, { method, headers, agent: secure ? https : http, ...(init.signal ? { signal: init.signal } : {}) });
      req.once('error', reject);
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', reject);
        res.once('end', () => {
          try {
            resolve(toResponse(res, method === 'HEAD' ? undefined : Buffer.concat(chunks)));
          } catch (e) {
            reject(e);
          }
        });
      });
      req.end(body);
    });
  };
}

function requestBody(body: RequestInit['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError(`model endpoint fetch: unsupported request body (${Object.prototype.toString.call(body)}); only strings and bytes are sent`);
}

function toResponse(res: IncomingMessage, raw: Buffer | undefined): Response {
  const status = res.statusCode ?? 0;
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  let body: Buffer | null = raw && !NULL_BODY_STATUS.has(status) ? raw : null;
  const encoding = headers.get('content-encoding')?.trim().toLowerCase();
  if (body && body.byteLength > 0 && encoding && encoding !== 'identity') {
    const decode = DECODERS[encoding];
    if (!decode) throw new TypeError(`model endpoint fetch: the answer has content-encoding ${encoding}, which this client does not decode`);
    body = decode(body);
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}
