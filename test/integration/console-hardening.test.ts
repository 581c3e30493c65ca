import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import { connectTemporal, type Connected } from '../../runtime/connection';
import { createSkillStore } from '../../storage';
import { writeUsersFile, type TestUser } from '../support/console';
import { cookiesOf } from '../support/http';
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
  it('the review example next=%2F%09%2Fevil.example%2Fphish answers Location: / and the form does not carry it', async () => {
    const form = await (await fetch(`${web.url}/login?next=%2F%09%2Fevil.example%2Fphish`)).text();
    expect(form).toContain('name="next" value="/"');
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
