import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Payload, PayloadCodec } from '@temporalio/common';

/** Payloads as the Temporal UI and CLI send them: JSON with base64 bytes. */
interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

function fromJson(p: JsonPayload): Payload {
  return {
    metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(p.data ?? '', 'base64'),
  };
}

function toJson(p: Payload): JsonPayload {
  return {
    metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')])),
    data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error(`body larger than ${MAX_BODY_BYTES} bytes`), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface CodecServerOptions {
  codec: PayloadCodec;
  port?: number;
  host?: string;
  /** Origins the browser may call from (the Temporal UI's URL); default any (`*`). */
  corsOrigins?: readonly string[];
}

export interface RunningCodecServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * The codec endpoint of the Temporal UI ("Data Encoder" setting) and `temporal --codec-endpoint`:
 * POST /encode and POST /decode with `{ payloads: [...] }`, CORS preflight included, so
 * approvers read encrypted payloads in the UI while history stays encrypted.
 */
export async function startCodecServer(opts: CodecServerOptions): Promise<RunningCodecServer> {
  const origins = opts.corsOrigins?.length ? opts.corsOrigins : ['*'];
  const cors = (req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin;
    if (origins.includes('*')) res.setHeader('Access-Control-Allow-Origin', origin ?? '*');
    else if (origin && origins.includes(origin)) res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
    res.setHeader('Access-Control-Max-Age', '600');
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    cors(req, res);
    const path = new URL(req.url ?? '/', 'http://codec').pathname.replace(/\/+$/, '');
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (req.method === 'GET' && path === '/healthz') return send(res, 200, { ok: true });
    const op = path.endsWith('/encode') ? 'encode' : path.endsWith('/decode') ? 'decode' : undefined;
    if (!op) return send(res, 404, { error: 'use POST /encode or POST /decode' });
    if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
    void (async () => {
      try {
        const body = JSON.parse(await readBody(req)) as { payloads?: JsonPayload[] };
        if (!Array.isArray(body.payloads)) return send(res, 400, { error: 'body must be {"payloads": [...]}' });
        const payloads = body.payloads.map(fromJson);
        const out = op === 'encode' ? await opts.codec.encode(payloads) : await opts.codec.decode(payloads);
        send(res, 200, { payloads: out.map(toJson) });
      } catch (e) {
        const err = e as Error & { status?: number };
        send(res, err.status ?? (err instanceof SyntaxError ? 400 : 422), { error: err.message });
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8888, opts.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  return { url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`, server, close: () => new Promise((r) => server.close(() => r())) };
}
