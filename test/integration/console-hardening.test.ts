import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import { connectTemporal, type Connected } from '../../runtime/connection';
import { createSkillStore } from '../../storage';
import { writeUsersFile, type TestUser } from '../support/console';
import { cookiesOf, postLargeBody } from '../support/http';
import { realServices, uniqueName } from '../support/infra';

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

beforeAll(async () => {
  const config = await realServices(['s3', 'temporal']);
  temporal = await connectTemporal(config);
  deps = { client: temporal.client, store: createSkillStore(config.s3), config };
  ({ path: usersPath, users } = writeUsersFile([{ name: 'maria', role: 'approver', scopes: [`apps/${app}`, `users/${app}/*`] }]));
  web = await startConsole(deps, consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: usersPath }, { port: 0 }));
});

afterAll(async () => {
  await web?.close();
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
