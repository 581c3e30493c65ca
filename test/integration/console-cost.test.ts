/**
 * What one Pending load, one `evolution metrics` call and one Activity load cost in S3
 * requests does not depend on the scope's history (issue 30 item 4): a scope with 10
 * historical revisions and jobs and one with 10,000 answer with the same requests, counted
 * by the S3 counting proxy in front of the console's store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import { listPending, scanRevisionsByStatus } from '../../client/approvals';
import { recountScopeMetrics, scopeMetrics } from '../../client/metrics';
import { scopeKey as scopeKeyOf, type Scope } from '../../core';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import { createSkillStore } from '../../storage';
import { startCountingProxy, type CountingProxy, type Counts } from '../../bench/support/s3-counting-proxy';
import { holdRevision, writeUsersFile, type TestUser } from '../support/console';
import { seedHistory } from '../support/history-seed';
import { cookiesOf } from '../support/http';
import { uniqueName } from '../support/infra';
import { useMainWorker } from '../support/worker';

const fx = useMainWorker({}, { ownBucket: true });
const HISTORY = { small: 10, big: 10_000 } as const;
const scopes: Record<keyof typeof HISTORY, Scope> = { small: { mode: 'app', app: uniqueName('small') }, big: { mode: 'app', app: uniqueName('big') } };
let proxy: CountingProxy;
let web: RunningConsole;
let users: Record<string, TestUser>;
const measured: Record<string, object> = {};

beforeAll(async () => {
  await Promise.all(
    (Object.keys(HISTORY) as (keyof typeof HISTORY)[]).map(async (size) => {
      const n = HISTORY[size];
      await seedHistory(fx.store, scopes[size], { revisions: n, skills: Math.max(1, Math.round(n / 5)), jobs: n, tag: size });
      for (let i = 0; i < 3; i++) await holdRevision(fx.w, fx.store, scopes[size], { ...WEATHER_SEED_SKILL, name: uniqueName(`held-${size}`) });
    }),
  );
  proxy = await startCountingProxy(fx.config.s3.endpoint!);
}, 600_000);

afterAll(async () => {
  await web?.close();
  await proxy?.close();
  console.log(`S3 requests per request, by history size: ${JSON.stringify(measured, null, 1)}`);
});

async function consoleFor(): Promise<RunningConsole> {
  const written = writeUsersFile([
    { name: 'small', role: 'approver', scopes: [`apps/${(scopes.small as { app: string }).app}`] },
    { name: 'big', role: 'approver', scopes: [`apps/${(scopes.big as { app: string }).app}`] },
  ]);
  users = written.users;
  const store = createSkillStore({ ...fx.config.s3, endpoint: proxy.endpoint });
  return startConsole({ client: fx.w.client, store, config: fx.config }, consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: written.path }, { port: 0 }));
}

async function signIn(token: string): Promise<string> {
  const form = await fetch(`${web.url}/login`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];
  const signedIn = await fetch(`${web.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookiesOf(form) },
    body: new URLSearchParams({ token, _csrf: csrf }),
  });
  return cookiesOf(signedIn);
}

async function cost(what: () => Promise<Response>): Promise<Counts> {
  const before = proxy.snapshot();
  const res = await what();
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return proxy.diff(before);
}

describe('request cost against history', () => {
  it('Pending (page, poll and API) costs the same S3 requests with 10 and with 10,000 historical revisions and jobs', async () => {
    web = await consoleFor();
    for (const size of ['small', 'big'] as const) {
      const token = users[size].token;
      const cookie = await signIn(token);
      const api = await cost(() => fetch(`${web.url}/api/pending`, { headers: { authorization: `Bearer ${token}` } }));
      const page = await cost(() => fetch(`${web.url}/`, { headers: { cookie } }));
      const poll = await cost(() => fetch(`${web.url}/live/pending`, { headers: { cookie } }));
      measured[`${size} (${HISTORY[size]})`] = { 'GET /api/pending': api, 'GET / (Pending page)': page, 'GET /live/pending (3 s poll)': poll };
      const listed = (await (await fetch(`${web.url}/api/pending`, { headers: { authorization: `Bearer ${token}` } })).json()) as { revisions: unknown[] };
      expect(listed.revisions).toHaveLength(3);
    }
    const small = measured[`small (${HISTORY.small})`] as Record<string, Counts>;
    const big = measured[`big (${HISTORY.big})`] as Record<string, Counts>;
    expect(big).toEqual(small);
    expect(small['GET /api/pending']!.total).toBe(3); // one revision read per pending revision
    expect(small['GET /live/pending (3 s poll)']!.total).toBe(0);
  });

  it('`evolution pending` (client listPending) reads only the open approvals: the same S3 requests at 10 and 10,000', async () => {
    const store = createSkillStore({ ...fx.config.s3, endpoint: proxy.endpoint });
    const cli: Record<string, Counts> = {};
    for (const size of ['small', 'big'] as const) {
      const before = proxy.snapshot();
      expect(await listPending({ client: fx.w.client, store }, scopeKeyOf(scopes[size]))).toHaveLength(3);
      cli[`${size} (${HISTORY[size]})`] = proxy.diff(before);
    }
    measured['evolution pending (listPending)'] = cli;
    expect(cli[`big (${HISTORY.big})`]).toEqual(cli[`small (${HISTORY.small})`]);
    expect(cli[`small (${HISTORY.small})`]!.total).toBe(3);
  });

  it('`evolution metrics` (scopeMetrics) and Activity (page and API) cost the same S3 requests at 10 and 10,000', async () => {
    web ??= await consoleFor();
    const store = createSkillStore({ ...fx.config.s3, endpoint: proxy.endpoint });
    const metrics: Record<string, Counts> = {};
    const activity: Record<string, Record<string, Counts>> = {};
    for (const size of ['small', 'big'] as const) {
      const scopeKey = scopeKeyOf(scopes[size]);
      const before = proxy.snapshot();
      // The counters as the scope's usage workflow keeps them: the seeded history (the held fixtures are written straight to storage, not counted).
      expect(await scopeMetrics(store, scopeKey)).toMatchObject({ revisionsWritten: HISTORY[size], deltasQuarantined: HISTORY[size] / 10 });
      metrics[`${size} (${HISTORY[size]})`] = proxy.diff(before);
      const token = users[size].token;
      const cookie = await signIn(token);
      const api = await cost(() => fetch(`${web.url}/api/activity`, { headers: { authorization: `Bearer ${token}` } }));
      const page = await cost(() => fetch(`${web.url}/activity`, { headers: { cookie } }));
      activity[`${size} (${HISTORY[size]})`] = { 'GET /api/activity': api, 'GET /activity (page)': page };
      const shown = (await (await fetch(`${web.url}/api/activity`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        metrics: Record<string, { revisionsWritten: number }>;
      };
      expect(shown.metrics[scopeKey]!.revisionsWritten).toBe(HISTORY[size]);
    }
    measured['evolution metrics (scopeMetrics)'] = metrics;
    measured.Activity = activity;
    expect(metrics[`big (${HISTORY.big})`]).toEqual(metrics[`small (${HISTORY.small})`]);
    // The usage summary (counters and recent page), and the scope's re-certification checks (a listing: none here).
    expect(metrics[`small (${HISTORY.small})`]!.total).toBe(2);
    expect(activity[`big (${HISTORY.big})`]).toEqual(activity[`small (${HISTORY.small})`]);
    expect(activity[`small (${HISTORY.small})`]!['GET /api/activity']!.total).toBe(2);
  });

  it('for comparison: the storage scan Pending used to make, and the recount `evolution metrics` used to make, grow with history', async () => {
    const store = createSkillStore({ ...fx.config.s3, endpoint: proxy.endpoint });
    const scan: Record<string, Counts> = {};
    const metrics: Record<string, Counts> = {};
    for (const size of ['small', 'big'] as const) {
      let before = proxy.snapshot();
      expect(await scanRevisionsByStatus(store, scopeKeyOf(scopes[size]), ['pending_approval'])).toHaveLength(3);
      scan[`${size} (${HISTORY[size]})`] = proxy.diff(before);
      before = proxy.snapshot();
      expect((await recountScopeMetrics(store, scopeKeyOf(scopes[size]))).revisionsWritten).toBe(HISTORY[size] + 3);
      metrics[`${size} (${HISTORY[size]})`] = proxy.diff(before);
    }
    measured['storage scan (scanRevisionsByStatus, what Pending used to read)'] = scan;
    measured['recount (recountScopeMetrics, what evolution metrics used to read)'] = metrics;
    expect(scan[`big (${HISTORY.big})`]!.total).toBeGreaterThan(100 * scan[`small (${HISTORY.small})`]!.total);
    expect(metrics[`big (${HISTORY.big})`]!.total).toBeGreaterThan(100 * metrics[`small (${HISTORY.small})`]!.total);
    // ~38,000 requests against 10,000 revisions and jobs: minutes on a loaded machine
  }, 420_000);
});
