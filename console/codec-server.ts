import { serve, type HttpBindings, type ServerType } from '@hono/node-server';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { AddressInfo } from 'node:net';
import { clientAddress, limiterKey, TRUST_NO_PROXY, type TrustProxy } from './client-address';
import { CredentialLimiter } from './rate-limit';
import type { ConsoleUser } from './users';

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

export interface CodecServerOptions {
  codec: PayloadCodec;
  /** Who a bearer token is (the console's users file or OIDC issuer); undefined: unknown. */
  authenticate(token: string): Promise<{ user: ConsoleUser } | undefined>;
  port?: number;
  host?: string;
  /** Origins a browser may call from (the Temporal UI's URL); none by default, never `*`. */
  corsOrigins?: readonly string[];
  /** Host header values answered (DNS rebinding); default: the loopback names of the listening port. */
  allowedHosts?: readonly string[];
  /** Serve /encode (an admin may then make encrypted payloads); off by default. */
  encode?: boolean;
  trust?: TrustProxy;
  credentialLimit?: { max: number; windowMs: number };
}

export interface RunningCodecServer {
  url: string;
  server: ServerType;
  close(): Promise<void>;
}

type CodecEnv = { Bindings: Partial<HttpBindings> };

/** It decrypts any payload of the namespace, so it answers only users who may see every scope. */
const seesEverything = (user: ConsoleUser) => user.scopes.includes('*');

function bearer(c: Context): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
}

/**
 * The codec endpoint of the Temporal UI ("Data Encoder": its codec endpoint with "pass the
 * access token" on) and `temporal --codec-endpoint … --codec-auth 'Bearer …'`: POST /decode
 * (and /encode when turned on) with `{ payloads: [...] }`. Every request but a CORS
 * preflight needs a bearer token the console would accept, from a user whose scopes are `*`
 * (/encode: an admin); the Host header must be one it serves; a browser may call it only
 * from a configured origin, without cookies.
 */
export function createCodecApp(opts: CodecServerOptions, allowedHosts: () => readonly string[]) {
  const limiter = new CredentialLimiter(opts.credentialLimit);
  const trust = opts.trust ?? TRUST_NO_PROXY;
  const app = new Hono<CodecEnv>();

  app.use(async (c, next) => {
    const host = (c.req.header('host') ?? '').toLowerCase();
    if (!allowedHosts().includes(host)) return c.json({ error: `this codec server does not answer for Host ${JSON.stringify(host)}` }, 421);
    await next();
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
  });
  app.use(cors({ origin: [...(opts.corsOrigins ?? [])], allowMethods: ['POST', 'OPTIONS'], allowHeaders: ['Content-Type', 'Authorization', 'X-Namespace'], maxAge: 600 }));
  app.get('/healthz', (c) => c.json({ ok: true }));

  app.post('*', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json({ error: `body larger than ${MAX_BODY_BYTES} bytes` }, 413) }), async (c) => {
    const path = c.req.path.replace(/\/+$/, '');
    const op = path.endsWith('/encode') ? 'encode' : path.endsWith('/decode') ? 'decode' : undefined;
    if (!op) return c.json({ error: 'use POST /decode (or /encode)' }, 404);
    const token = bearer(c);
    if (!token)
      return c.json({ error: 'send Authorization: Bearer <token> (Temporal UI: turn on "pass access token" for the codec endpoint)' }, 401, { 'WWW-Authenticate': 'Bearer' });
    const key = limiterKey(clientAddress(c.env?.incoming, trust));
    const limit = limiter.check(key);
    if (!limit.allowed) return c.json({ error: `too many failed attempts; try again in ${limit.retryAfterSeconds} s` }, 429, { 'Retry-After': String(limit.retryAfterSeconds) });
    const signedIn = await opts.authenticate(token);
    if (!signedIn) {
      limiter.failed(key);
      return c.json({ error: 'unknown or expired token' }, 401, { 'WWW-Authenticate': 'Bearer' });
    }
    const { user } = signedIn;
    if (!seesEverything(user)) return c.json({ error: `${user.name} may not decode: the codec server decrypts every scope's payloads, so it needs the scope pattern "*"` }, 403);
    if (op === 'encode') {
      if (!opts.encode) return c.json({ error: '/encode is turned off (EVOLUTION_CODEC_ENCODE=true turns it on)' }, 404);
      if (user.role !== 'admin') return c.json({ error: `${user.name} is a ${user.role}: only an admin may encode payloads` }, 403);
    }
    let body: { payloads?: JsonPayload[] };
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: 'body must be JSON: {"payloads": [...]}' }, 400);
    }
    if (!Array.isArray(body?.payloads)) return c.json({ error: 'body must be {"payloads": [...]}' }, 400);
    try {
      const payloads = body.payloads.map(fromJson);
      const out = op === 'encode' ? await opts.codec.encode(payloads) : await opts.codec.decode(payloads);
      return c.json({ payloads: out.map(toJson) });
    } catch (e) {
      return c.json({ error: (e as Error).message }, 422);
    }
  });
  app.all('*', (c) => c.json({ error: 'use POST /decode (or /encode)' }, c.req.method === 'GET' ? 404 : 405));
  return app;
}

/** The loopback names a local client reaches `port` by. */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

export async function startCodecServer(opts: CodecServerOptions): Promise<RunningCodecServer> {
  const host = opts.host ?? '127.0.0.1';
  let allowed: readonly string[] = (opts.allowedHosts ?? []).map((h) => h.toLowerCase());
  const app = createCodecApp(opts, () => allowed);
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: opts.port ?? 8888 }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  if (!opts.allowedHosts?.length) allowed = loopbackHosts(port);
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shown}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
