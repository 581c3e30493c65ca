import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import { connectTemporal, type Connected } from '../../runtime/connection';
import { createSkillStore } from '../../storage';
import { writeUsersFile, type TestUser } from '../support/console';
import { cookiesOf, postLargeBody } from '../support/http';
import { realServices, uniqueName } from '../support/infra';
import { startTestIssuer, type TestIssuer } from '../support/oidc';

/**
 * The console's HTTP boundary against the attacks of the security review (issue 31 item 4),
 * on a real console over HTTP with real Temporal and S3 behind it.
 */
const app = uniqueName('hardening');
let users: Record<string, TestUser>;
let usersPath: string;
let temporal: Connected;
let web: RunningConsole;
let deps: Parameters<typeof startConsole>[0];
let issuer: TestIssuer;
const AUDIENCE = 'evolution-console-hardening';

beforeAll(async () => {
  const config = await realServices(['s3', 'temporal']);
  temporal = await connectTemporal(config);
  deps = { client: temporal.client, store: createSkillStore(config.s3), config };
  ({ path: usersPath, users } = writeUsersFile([{ name: 'maria', role: 'approver', scopes: [`apps/${app}`, `users/${app}/*`] }]));
  issuer = await startTestIssuer(AUDIENCE);
  web = await startConsole(deps, consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: usersPath, ...issuer.env(AUDIENCE) }, { port: 0 }));
});

afterAll(async () => {
  await web?.close();
  await issuer?.close();
  await temporal?.close();
});

async function loginForm(base = web.url): Promise<{ cookie: string; csrf: string }> {
  const form = await fetch(`${base}/login`);
  return { cookie: cookiesOf(form), csrf: /name="_csrf" value="([^"]+)"/.exec(await form.text())![1] };
}

async function signIn(token: string, next?: string, base = web.url): Promise<Response> {
  const { cookie, csrf } = await loginForm(base);
  return fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie },
    body: new URLSearchParams({ token, _csrf: csrf, ...(next !== undefined ? { next } : {}) }),
  });
}

describe('sign-in redirect (next)', () => {
  it('the review example next=%2F%09%2Fevil.example%2Fphish answers Location: /; as a link to the form it is refused', async () => {
    expect((await fetch(`${web.url}/login?next=%2F%09%2Fevil.example%2Fphish`)).status).toBe(400);
    expect(await (await fetch(`${web.url}/login?next=%2F%5Cevil.example`)).text()).toContain('name="next" value="/"');
    const res = await signIn(users.maria.token, decodeURIComponent('%2F%09%2Fevil.example%2Fphish'));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
  });

  it('backslashes, control characters and scheme-relative forms go to /; a path on the site is kept', async () => {
    for (const next of ['/\\evil.example', '/\n/evil.example', '//evil.example', '/..//evil.example', 'https://evil.example/']) {
      expect((await signIn(users.maria.token, next)).headers.get('location'), JSON.stringify(next)).toBe('/');
    }
    expect((await signIn(users.maria.token, '/activity?scope=apps/x')).headers.get('location')).toBe('/activity?scope=apps/x');
  });
});

describe('request body limits', () => {
  it('a 64 MB sign-in post is answered 413 before the console reads it, with or without Content-Length', async () => {
    const declared = await postLargeBody(`${web.url}/login`, 64 * 1024 * 1024);
    expect(declared.status).toBe(413);
    expect(declared.sent).toBeLessThan(16 * 1024 * 1024);
    const chunked = await postLargeBody(`${web.url}/login`, 64 * 1024 * 1024, { chunked: true });
    expect(chunked.status).toBe(413);
    expect(chunked.sent).toBeLessThan(16 * 1024 * 1024);
    // A few at once, as in the review: the console still answers afterwards.
    const burst = await Promise.all([1, 2, 3, 4].map(() => postLargeBody(`${web.url}/login`, 64 * 1024 * 1024, { chunked: true })));
    expect(burst.map((r) => r.status)).toEqual([413, 413, 413, 413]);
    expect((await fetch(`${web.url}/healthz`)).status).toBe(200);
  });

  it('forms stop at 64 KB and the API at 1 MB; smaller bodies go on to the usual checks', async () => {
    const { cookie } = await loginForm();
    const justUnder = await postLargeBody(`${web.url}/login`, 60 * 1024, { headers: { cookie } });
    expect(justUnder.status).toBe(403); // read, then refused by the CSRF check
    expect((await postLargeBody(`${web.url}/login`, 65 * 1024, { headers: { cookie } })).status).toBe(413);
    const auth = { authorization: `Bearer ${users.maria.token}`, 'content-type': 'application/json' };
    const apiOver = await postLargeBody(`${web.url}/api/revisions/rev-x/decision`, 1024 * 1024 + 1, { headers: auth });
    expect(apiOver.status).toBe(413);
    expect(JSON.parse(apiOver.body)).toMatchObject({ error: 'PayloadTooLarge' });
    const apiUnder = await postLargeBody(`${web.url}/api/revisions/rev-x/decision`, 512 * 1024, { headers: auth });
    expect(apiUnder.status).toBe(400); // read, then refused as not JSON
  });
});

describe('query parameters', () => {
  const get = (path: string) => fetch(`${web.url}${path}`, { headers: { authorization: `Bearer ${users.maria.token}` }, redirect: 'manual' });

  it('a malformed ?scope= answers 400 with what is wrong, not 500 (a key below a wildcard the user may see, bad percent-encoding)', async () => {
    const below = await get(`/api/skills?scope=users/${app}/ana/extra`);
    expect(below.status).toBe(400);
    expect(((await below.json()) as { message: string }).message).toMatch(/must be a scope key/);
    for (const path of [
      `/api/skills?scope=%E0%A4%A`,
      `/api/activity?scope=%ZZ`,
      `/api/skills/some-skill?scope=apps/${app}/..`,
      `/api/activity?scope=apps/${app}%00`,
      `/api/activity?action=nonsense`,
      `/api/skills?scope=apps/${app}&scope=apps/other`,
      `/api/skills?scope=${'a'.repeat(2000)}`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { error: string }).error, path).toBe('InputError');
    }
    // Pages answer 400 too, before sign-in is even asked for.
    expect((await fetch(`${web.url}/skills?scope=apps/..%2F..`, { redirect: 'manual' })).status).toBe(400);
  });

  it('well-formed parameters still work', async () => {
    expect((await get(`/api/skills?scope=apps/${app}`)).status).toBe(200);
    expect((await get(`/api/activity?scope=apps/${app}&action=approve&actor=maria&skill=x`)).status).toBe(200);
    expect((await get(`/api/activity?scope=&action=`)).status).toBe(200);
  });
});

describe('OIDC', () => {
  const claims = { sub: 'u-1', preferred_username: 'ana@idp', evolution_role: 'approver', evolution_scopes: [`apps/${app}`] };
  const me = (token: string) => fetch(`${web.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });

  it('refuses a token without exp, and one for another audience or none, even though the issuer signed them', async () => {
    expect((await me(await issuer.sign(claims))).status).toBe(200);
    expect((await me(await issuer.sign(claims, { expires: null }))).status).toBe(401);
    expect((await me(await issuer.sign(claims, { audience: 'another-app' }))).status).toBe(401);
    expect((await me(await issuer.sign(claims, { audience: null }))).status).toBe(401);
  });

  it('a console session signed in with a token ends when the token expires', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3;
    const res = await signIn(await issuer.sign(claims, { expires: expiresAt }), '/activity');
    expect(res.status).toBe(303);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('evolution_session='))!;
    const cookieExpires = Date.parse(/Expires=([^;]+)/i.exec(setCookie)![1]);
    expect(cookieExpires).toBeLessThanOrEqual(expiresAt * 1000);
    const cookie = setCookie.split(';')[0];
    expect((await fetch(`${web.url}/activity`, { headers: { cookie }, redirect: 'manual' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt * 1000 - Date.now()) + 1100));
    const after = await fetch(`${web.url}/activity`, { headers: { cookie }, redirect: 'manual' });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toMatch(/^\/login/);
  });
});

describe('one limiter for every credential check', () => {
  async function limited(env: Record<string, string> = {}) {
    return startConsole(deps, consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: usersPath, ...env }, { port: 0 }), { credentialLimit: { max: 3, windowMs: 60_000 } });
  }
  const bearer = (base: string, token: string, headers: Record<string, string> = {}) => fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}`, ...headers } });

  it('bearer-token guessing on /api is limited: after 3 wrong tokens even the right one answers 429 with Retry-After', async () => {
    const c = await limited();
    try {
      for (let i = 0; i < 3; i++) expect((await bearer(c.url, `guess-${i}`)).status).toBe(401);
      const blocked = await bearer(c.url, users.maria.token);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await c.close();
    }
  });

  it('the form and the API share the budget', async () => {
    const c = await limited();
    try {
      for (let i = 0; i < 2; i++) expect((await signIn(`guess-${i}`, undefined, c.url)).status).toBe(401);
      expect((await bearer(c.url, 'guess-api')).status).toBe(401);
      expect((await signIn(users.maria.token, undefined, c.url)).status).toBe(429);
      expect((await bearer(c.url, users.maria.token)).status).toBe(429);
    } finally {
      await c.close();
    }
  });

  it('without a trusted proxy, X-Forwarded-For is ignored: a client cannot name itself a fresh address', async () => {
    const c = await limited();
    try {
      for (let i = 0; i < 3; i++) expect((await bearer(c.url, `guess-${i}`, { 'x-forwarded-for': `198.51.100.${i}` })).status).toBe(401);
      expect((await bearer(c.url, users.maria.token, { 'x-forwarded-for': '198.51.100.99' })).status).toBe(429);
    } finally {
      await c.close();
    }
  });

  it('behind a trusted proxy each forwarded client has its own budget, and an IPv6 client is counted by its /64', async () => {
    const c = await limited({ EVOLUTION_CONSOLE_TRUSTED_PROXIES: 'loopback' });
    try {
      // Three addresses of one /64: one budget.
      for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:a:b:c:d', '2001:db8:1:2:ffff:ffff:ffff:ffff'])
        expect((await bearer(c.url, 'guess', { 'x-forwarded-for': address })).status).toBe(401);
      expect((await bearer(c.url, users.maria.token, { 'x-forwarded-for': '2001:db8:1:2::77' })).status).toBe(429);
      // The next /64 and an IPv4 client are someone else.
      expect((await bearer(c.url, users.maria.token, { 'x-forwarded-for': '2001:db8:1:3::1' })).status).toBe(200);
      expect((await bearer(c.url, users.maria.token, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
      // A client cannot hide behind an address it prepends: the nearest untrusted hop counts.
      expect((await bearer(c.url, users.maria.token, { 'x-forwarded-for': '203.0.113.50, 2001:db8:1:2::5' })).status).toBe(429);
    } finally {
      await c.close();
    }
  });
});
