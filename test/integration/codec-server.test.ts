/**
 * The codec server against the review's findings (issue 31 item 3): it decrypted for anyone,
 * reflected any Origin with credentials, and let anyone encode. A real browser (chromium) on
 * a "Temporal UI" origin makes the cross-origin calls, preflight included.
 */
import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenAuthenticator } from '../../console/auth';
import { startCodecServer, type RunningCodecServer } from '../../console/codec-server';
import { codecServerSettingsFromEnv } from '../../console/codec-settings';
import { jwtVerifier } from '../../console/oidc';
import { loadUsersFile } from '../../console/users';
import { AesGcmPayloadCodec, ENCRYPTED_ENCODING } from '../../codec/aes-gcm-codec';
import { parsePayloadKeys } from '../../codec/keys';
import { launchChromium } from '../support/browser';
import { writeUsersFile, type TestUser } from '../support/console';
import { startTestIssuer, type TestIssuer } from '../support/oidc';

const codec = new AesGcmPayloadCodec(parsePayloadKeys(`k1:${randomBytes(32).toString('base64')}`));
const AUDIENCE = 'temporal-ui';
let users: Record<string, TestUser>;
let issuer: TestIssuer;
let codecServer: RunningCodecServer;
let encoding: RunningCodecServer;
let ui: Server;
let other: Server;
let uiOrigin: string;
let otherOrigin: string;
let browser: Browser;
let secretPayload: { metadata: Record<string, string>; data: string };

const json = (p: { metadata?: Record<string, Uint8Array | null> | null; data?: Uint8Array | null }) => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')])),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});

async function blankPageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Temporal UI</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  const written = writeUsersFile([
    { name: 'operator', role: 'viewer', scopes: ['*'] },
    { name: 'root', role: 'admin', scopes: ['*'] },
    { name: 'maria', role: 'approver', scopes: ['apps/shop'] },
  ]);
  users = written.users;
  issuer = await startTestIssuer(AUDIENCE);
  ({ server: ui, origin: uiOrigin } = await blankPageServer());
  ({ server: other, origin: otherOrigin } = await blankPageServer());
  const settings = codecServerSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: written.path, ...issuer.env(AUDIENCE) }, { port: 0, corsOrigins: uiOrigin });
  const authenticate = tokenAuthenticator(loadUsersFile(written.path), jwtVerifier(settings.oidc!));
  codecServer = await startCodecServer({ codec, authenticate, ...settings });
  encoding = await startCodecServer({ codec, authenticate, ...settings, encode: true });
  const [encrypted] = await codec.encode([{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('"the approver comment"') }]);
  secretPayload = json(encrypted!);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await codecServer?.close();
  await encoding?.close();
  await issuer?.close();
  await new Promise((r) => ui?.close(r));
  await new Promise((r) => other?.close(r));
});

/** A page on `origin` calls the codec server with fetch, as the Temporal UI does. */
async function pageOn(origin: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/`);
  return page;
}

function callFromPage(page: Page, url: string, token: string | undefined, payloads: unknown[]) {
  return page.evaluate(
    async ([u, t, p]) => {
      try {
        const res = await fetch(u, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default', ...(t ? { Authorization: `Bearer ${t}` } : {}) },
          body: JSON.stringify({ payloads: p }),
        });
        return { status: res.status, body: await res.text() };
      } catch (e) {
        return { status: 0, body: String(e) };
      }
    },
    [url, token, payloads] as const,
  );
}

/** A raw request with any Host header (fetch would not let a test set it). */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'POST', headers: opts.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('codec server', () => {
  it('the Temporal UI origin, with the signed-in user token, gets the payload decoded after a real browser preflight', async () => {
    const page = await pageOn(uiOrigin);
    const res = await callFromPage(page, `${codecServer.url}/decode`, users.operator.token, [secretPayload]);
    expect(res.status).toBe(200);
    const [decoded] = (JSON.parse(res.body) as { payloads: { data: string }[] }).payloads;
    expect(Buffer.from(decoded!.data, 'base64').toString()).toBe('"the approver comment"');
    // The UI forwarding an OIDC access token works the same way.
    const jwt = await issuer.sign({ sub: 'op', evolution_role: 'viewer', evolution_scopes: '*' });
    expect((await callFromPage(page, `${codecServer.url}/decode`, jwt, [secretPayload])).status).toBe(200);
  });

  it('without credentials, with a wrong or expired token, it answers 401 and decrypts nothing', async () => {
    const page = await pageOn(uiOrigin);
    for (const token of [undefined, 'wrong-token', await issuer.sign({ sub: 'op', evolution_role: 'viewer', evolution_scopes: '*' }, { expires: '-1m' })]) {
      const res = await callFromPage(page, `${codecServer.url}/decode`, token, [secretPayload]);
      expect(res.status).toBe(401);
      expect(res.body).not.toContain('approver comment');
    }
    // The review's request: no Origin, no credentials, straight at /decode.
    const direct = await fetch(`${codecServer.url}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ payloads: [secretPayload] }),
    });
    expect(direct.status).toBe(401);
  });

  it('a user who may not see every scope is refused (403): the server decrypts any scope', async () => {
    const res = await fetch(`${codecServer.url}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${users.maria.token}` },
      body: JSON.stringify({ payloads: [secretPayload] }),
    });
    expect(res.status).toBe(403);
  });

  it('another origin is never reflected, with or without credentials: its browser call fails at the preflight', async () => {
    const page = await pageOn(otherOrigin);
    const res = await callFromPage(page, `${codecServer.url}/decode`, users.operator.token, [secretPayload]);
    expect(res.status).toBe(0); // blocked by the browser's CORS check
    const preflight = await fetch(`${codecServer.url}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const post = await fetch(`${codecServer.url}/decode`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'content-type': 'application/json', authorization: `Bearer ${users.operator.token}` },
      body: JSON.stringify({ payloads: [] }),
    });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    // The configured origin is answered exactly, and never with credentials (the token travels in a header, not a cookie).
    const allowed = await fetch(`${codecServer.url}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: uiOrigin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,x-namespace' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(uiOrigin);
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });

  it('answers only for its own Host names (a DNS-rebinding page reaching 127.0.0.1 under another name gets 421)', async () => {
    const body = JSON.stringify({ payloads: [secretPayload] });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${users.operator.token}` };
    const rebound = await raw(`${codecServer.url}/decode`, { headers: { ...headers, host: 'evil.example' }, body });
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain('approver');
    const port = new URL(codecServer.url).port;
    expect((await raw(`${codecServer.url}/decode`, { headers: { ...headers, host: `localhost:${port}` }, body })).status).toBe(200);
  });

  it('/encode is off by default; turned on, only an admin may encode', async () => {
    const plain = json({ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"decision":"approve","reviewer":"mallory"}') });
    const encode = (url: string, token: string) =>
      fetch(`${url}/encode`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ payloads: [plain] }) });
    expect((await encode(codecServer.url, users.root.token)).status).toBe(404);
    expect((await encode(encoding.url, users.operator.token)).status).toBe(403);
    const ok = await encode(encoding.url, users.root.token);
    expect(ok.status).toBe(200);
    const [made] = ((await ok.json()) as { payloads: { metadata: Record<string, string> }[] }).payloads;
    expect(Buffer.from(made!.metadata.encoding!, 'base64').toString()).toBe(ENCRYPTED_ENCODING);
  });

  it('settings: never "*" or a URL with a path as an origin; Host names required beyond loopback; /encode only by EVOLUTION_CODEC_ENCODE=true', () => {
    const base = { EVOLUTION_CONSOLE_USERS: writeUsersFile([{ name: 'x', role: 'viewer', scopes: ['*'] }]).path };
    expect(() => codecServerSettingsFromEnv({ ...base, EVOLUTION_CODEC_CORS_ORIGINS: '*' })).toThrow(/is not an origin/);
    expect(() => codecServerSettingsFromEnv({ ...base, EVOLUTION_CODEC_CORS_ORIGINS: 'http://ui.example/path' })).toThrow(/is not an origin/);
    expect(() => codecServerSettingsFromEnv(base, { host: '0.0.0.0' })).toThrow(/EVOLUTION_CODEC_ALLOWED_HOSTS/);
    expect(codecServerSettingsFromEnv({ ...base, EVOLUTION_CODEC_ALLOWED_HOSTS: 'codec.internal:8888' }, { host: '0.0.0.0' }).allowedHosts).toEqual(['codec.internal:8888']);
    expect(codecServerSettingsFromEnv(base).encode).toBe(false);
    expect(codecServerSettingsFromEnv({ ...base, EVOLUTION_CODEC_ENCODE: 'true' }).encode).toBe(true);
    expect(() => codecServerSettingsFromEnv({ ...base, EVOLUTION_CODEC_ENCODE: 'yes' })).toThrow(/EVOLUTION_CODEC_ENCODE must be true or false/);
    expect(() => codecServerSettingsFromEnv({})).toThrow(/authenticates like the console/);
  });
});
