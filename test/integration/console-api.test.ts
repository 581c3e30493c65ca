import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import { type Scope } from '../../core';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import { holdRevision, writeUsersFile, type TestUser } from '../support/console';
import { cookiesOf } from '../support/http';
import { startTestIssuer, type TestIssuer } from '../support/oidc';
import { uniqueName } from '../support/infra';
import { useMainWorker } from '../support/worker';
import { infraEnv } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';

const fx = useMainWorker();
const app = uniqueName('console-api');
const scope: Scope = { mode: 'app', app };
const AUDIENCE = 'evolution-console';

let users: Record<string, TestUser>;
let usersPath: string;
let web: RunningConsole;
let issuer: TestIssuer;

const deps = () => ({ client: fx.w.client, store: fx.store, config: fx.w.config });
const spec = (name: string) => ({ ...WEATHER_SEED_SKILL, name });

function api(path: string, token: string | undefined, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  return fetch(`${web.url}${path}`, { ...init, headers, redirect: 'manual' });
}
const decide = (id: string, token: string, body: unknown) =>
  api(`/api/revisions/${id}/decision`, token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const jwt = (claims: Record<string, unknown>, opts: Parameters<TestIssuer['sign']>[1] = {}) => issuer.sign(claims, opts);

beforeAll(async () => {
  ({ path: usersPath, users } = writeUsersFile([
    { name: 'maria', role: 'approver', scopes: [`apps/${app}`] },
    { name: 'vic', role: 'viewer', scopes: ['apps/*'] },
    { name: 'olga', role: 'admin', scopes: ['apps/elsewhere', 'users/elsewhere/*'] },
    { name: 'uma', role: 'viewer', scopes: [`users/${app}/*`] },
  ]));
  issuer = await startTestIssuer(AUDIENCE);
  const settings = consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: usersPath, ...issuer.env(AUDIENCE) }, { port: 0 });
  web = await startConsole(deps(), settings);
});

afterAll(async () => {
  await web?.close();
  await issuer?.close();
});

describe('console JSON API (real worker, S3 and HTTP)', () => {
  it('needs a known bearer token', async () => {
    expect((await api('/api/pending', undefined)).status).toBe(401);
    expect((await api('/api/pending', 'not-a-token')).status).toBe(401);
    expect((await api('/api/pending', users.maria.token.slice(0, -1))).status).toBe(401);
  });

  it("lists pending revisions in the user's scopes, oldest first, in the documented shape; other scopes see nothing", async () => {
    const first = await holdRevision(fx.w, fx.store, scope, spec(uniqueName('first')));
    const second = await holdRevision(fx.w, fx.store, scope, spec(uniqueName('second')));
    const res = await api('/api/pending', users.maria.token);
    expect(res.status).toBe(200);
    const { revisions } = (await res.json()) as { revisions: Record<string, unknown>[] };
    const mine = revisions.filter((r) => r.revisionId === first.revisionId || r.revisionId === second.revisionId);
    expect(mine.map((r) => r.revisionId)).toEqual([first.revisionId, second.revisionId]);
    // no auto-expiry: waits forever; why it waits comes with it (the risk tier too, on revisions a gate classified)
    expect(Object.keys(mine[0]).sort()).toEqual(['action', 'createdAt', 'heldBecause', 'name', 'revisionId', 'scopeKey', 'skillId', 'source']);
    expect(mine[0]).toMatchObject({ scopeKey: `apps/${app}`, skillId: first.skillId, action: 'create', source: 'reviewer' });
    // A wildcard pattern (apps/*) sees it too; olga's scopes do not.
    expect(((await (await api('/api/pending', users.vic.token)).json()) as { revisions: { revisionId: string }[] }).revisions.map((r) => r.revisionId)).toContain(first.revisionId);
    expect(((await (await api('/api/pending', users.olga.token)).json()) as { revisions: { revisionId: string }[] }).revisions.map((r) => r.revisionId)).not.toContain(
      first.revisionId,
    );
  });

  it("a users/{app}/* pattern sees that app's user scopes and not the app scope", async () => {
    const userScoped = await holdRevision(fx.w, fx.store, { mode: 'user', app, user: 'ana' }, spec(uniqueName('user-scoped')));
    const appScoped = await holdRevision(fx.w, fx.store, scope, spec(uniqueName('app-scoped')));
    const seen = ((await (await api('/api/pending', users.uma.token)).json()) as { revisions: { revisionId: string; scopeKey: string }[] }).revisions;
    expect(seen.map((r) => r.revisionId)).toContain(userScoped.revisionId);
    expect(seen.map((r) => r.revisionId)).not.toContain(appScoped.revisionId);
    expect(new Set(seen.map((r) => r.scopeKey))).toEqual(new Set([`users/${app}/ana`]));
    expect(await (await api('/api/scopes', users.uma.token)).json()).toEqual({ scopes: [`users/${app}/ana`] });
    expect((await api(`/api/revisions/${appScoped.revisionId}`, users.uma.token)).status).toBe(404);
  });

  it("a decision: 404 outside the scopes, 403 for a viewer, 200 with the answer under the token's name, 409 the second time", async () => {
    const held = await holdRevision(fx.w, fx.store, scope, spec(uniqueName('decide')));
    expect((await api(`/api/revisions/${held.revisionId}`, users.olga.token)).status).toBe(404);
    expect((await decide(held.revisionId, users.olga.token, { decision: 'approve' })).status).toBe(404);
    expect((await api('/api/revisions/no-such-revision', users.maria.token)).status).toBe(404);

    const shown = await api(`/api/revisions/${held.revisionId}`, users.vic.token);
    expect(shown.status).toBe(200);
    const view = (await shown.json()) as { revision: { status: string }; diff: string };
    expect(view.revision.status).toBe('pending_approval');
    expect(view.diff).toContain('+++ candidate/SKILL.md');
    const refused = await decide(held.revisionId, users.vic.token, { decision: 'approve' });
    expect(refused.status).toBe(403);
    expect((await fx.store.findRevision(held.revisionId))!.status).toBe('pending_approval');

    expect((await decide(held.revisionId, users.maria.token, { decision: 'maybe' })).status).toBe(400);
    // The name comes from the token; a "reviewer" in the body is ignored.
    const ok = await decide(held.revisionId, users.maria.token, { decision: 'approve', comment: 'ship it', reviewer: 'mallory' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ revisionId: held.revisionId, decision: 'approved', reviewer: 'maria', comment: 'ship it', finalStatus: 'active' });
    const audit = await fx.store.listAudit(held.scopeKey, held.skillId);
    expect(audit.find((e) => e.action === 'approve')).toMatchObject({ actor: 'maria', revisionId: held.revisionId });

    const again = await decide(held.revisionId, users.maria.token, { decision: 'reject' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toMatch(/by maria/);
  });

  it('the activity shows the quarantined deltas of the scopes a user sees, and no others', async () => {
    const entry = {
      id: `learning/apps/${app}/s-poison/seg-4:quarantine_delta`,
      at: new Date().toISOString(),
      action: 'quarantine_delta' as const,
      scopeKey: `apps/${app}`,
      sessionId: 's-poison',
      jobId: `learning/apps/${app}/s-poison/seg-4`,
      actor: 'evolution',
      reason: 'delta quarantined after 3 failed reviews: not valid JSON',
      failures: [1, 2, 3].map((n) => ({ jobId: `learning/apps/${app}/s-poison/seg-${n}`, reason: 'not valid JSON', at: new Date().toISOString() })),
    };
    await fx.store.appendSessionAudit(entry);
    // Activity reads the scope's recent page, which the scope's usage workflow keeps from what the learning job sends it: recorded here as that workflow records it.
    await fx.store.applyScopeRecordsBurst(`apps/${app}`, [{ kind: 'quarantine', event: entry }], entry.at);
    const seen = (await (await api(`/api/activity?scope=apps/${app}`, users.maria.token)).json()) as { quarantines: unknown[] };
    expect(seen.quarantines).toEqual([entry]);
    const elsewhere = (await (await api('/api/activity', users.olga.token)).json()) as { quarantines: { scopeKey: string }[] };
    expect(elsewhere.quarantines.map((q) => q.scopeKey)).not.toContain(`apps/${app}`);
  });

  it('usage of a scope the user sees (per skill and revision), 404 for a scope outside theirs', async () => {
    const scopeKey = `apps/${app}`;
    const load = { name: 'usage-skill', skillId: 'usage-skill', revisionId: 'usage-skill-r1', scopeKey };
    await fx.store.applyUsageBurst(
      scopeKey,
      [
        { jobId: `${app}-usage-1`, outcome: 'success', loads: [load] },
        { jobId: `${app}-usage-2`, outcome: 'fail', loads: [] },
      ],
      new Date().toISOString(),
    );
    const res = await api(`/api/usage?scope=${scopeKey}&skill=usage-skill`, users.maria.token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      scopeKey,
      sessions: 2,
      skills: [{ name: 'usage-skill', loaded: 1, offered: 1, with: { sessions: 1, successRate: 1 }, revisions: [{ revisionId: 'usage-skill-r1' }] }],
    });
    expect((await api(`/api/usage?scope=${scopeKey}`, users.olga.token)).status).toBe(404);
  });

  it("accepts an OIDC token signed by the issuer's key (JWKS) and rejects a foreign key, another issuer or an expired token", async () => {
    const held = await holdRevision(fx.w, fx.store, scope, spec(uniqueName('oidc')));
    const good = await jwt({ sub: 'u-123', preferred_username: 'ana@idp', evolution_role: 'approver', evolution_scopes: `apps/${app} global` });
    expect((await api('/api/me', good)).status).toBe(200);
    expect(await (await api('/api/me', good)).json()).toEqual({ name: 'ana@idp', role: 'approver', scopes: [`apps/${app}`, 'global'] });
    const res = await decide(held.revisionId, good, { decision: 'reject', comment: 'not now' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ decision: 'rejected', reviewer: 'ana@idp', finalStatus: 'rejected' });

    const foreign = (await generateKeyPair('RS256')).privateKey;
    for (const bad of [
      await jwt({ sub: 'x', evolution_role: 'admin', evolution_scopes: ['*'] }, { key: foreign }),
      await jwt({ sub: 'x', evolution_role: 'admin', evolution_scopes: ['*'] }, { issuer: 'https://evil.example.test' }),
      await jwt({ sub: 'x', evolution_role: 'admin', evolution_scopes: ['*'] }, { expires: '-1m' }),
      await jwt({ sub: 'x', evolution_role: 'root', evolution_scopes: ['*'] }),
    ]) {
      expect((await api('/api/pending', bad)).status).toBe(401);
    }
  });

  it('signs in through the form: HttpOnly SameSite=Strict cookie; a form post without the CSRF token is refused', async () => {
    const held = await holdRevision(fx.w, fx.store, scope, spec(uniqueName('csrf')));
    const form = await fetch(`${web.url}/login`);
    const loginCookies = cookiesOf(form);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];

    const noCsrf = await fetch(`${web.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: loginCookies },
      body: new URLSearchParams({ token: users.maria.token }),
    });
    expect(noCsrf.status).toBe(403);

    const signedIn = await fetch(`${web.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: loginCookies },
      body: new URLSearchParams({ token: users.maria.token, _csrf: csrf, next: '//evil.example.test/' }),
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/'); // never off-site
    const sessionCookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('evolution_session='))!;
    expect(sessionCookie).toMatch(/HttpOnly/);
    expect(sessionCookie).toMatch(/SameSite=Strict/);
    const cookie = sessionCookie.split(';')[0];

    const page = await fetch(`${web.url}/revisions/${held.revisionId}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const pageCsrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1];
    const forged = await fetch(`${web.url}/revisions/${held.revisionId}/decision`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie },
      body: new URLSearchParams({ decision: 'approve' }),
    });
    expect(forged.status).toBe(403);
    const wrong = await fetch(`${web.url}/revisions/${held.revisionId}/decision`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie },
      body: new URLSearchParams({ decision: 'approve', _csrf: `${pageCsrf}x` }),
    });
    expect(wrong.status).toBe(403);
    expect((await fx.store.findRevision(held.revisionId))!.status).toBe('pending_approval');
    // A session cookie alone does not authorize an API write (that needs the bearer token).
    const cookieWrite = await fetch(`${web.url}/api/revisions/${held.revisionId}/decision`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{"decision":"approve"}',
    });
    expect(cookieWrite.status).toBe(401);

    const real = await fetch(`${web.url}/revisions/${held.revisionId}/decision`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie },
      body: new URLSearchParams({ decision: 'approve', _csrf: pageCsrf }),
    });
    expect(real.status).toBe(303);
    expect((await fx.store.findRevision(held.revisionId))!.status).toBe('active');
  });

  it('rate-limits sign-in attempts per address', async () => {
    const limited = await startConsole(
      deps(),
      { ...consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: usersPath }, { port: 0 }) },
      { credentialLimit: { max: 3, windowMs: 60_000 } },
    );
    try {
      const attempt = async (token: string) => {
        const form = await fetch(`${limited.url}/login`);
        const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];
        return fetch(`${limited.url}/login`, { method: 'POST', redirect: 'manual', headers: { cookie: cookiesOf(form) }, body: new URLSearchParams({ token, _csrf: csrf }) });
      };
      for (let i = 0; i < 3; i++) expect((await attempt(`guess-${i}`)).status).toBe(401);
      const blocked = await attempt(users.maria.token); // even the right token, once over the limit
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('`evolution console` serves on loopback, prints its URL when ready, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), 'console', '--port', '0'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...infraEnv(), EVOLUTION_TASK_QUEUE: fx.w.taskQueue, EVOLUTION_CONSOLE_USERS: usersPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`console exited with ${code}: ${out}`)));
      });
      const me = await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${users.maria.token}` } });
      expect(await me.json()).toEqual({ name: 'maria', role: 'approver', scopes: [`apps/${app}`] });
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
