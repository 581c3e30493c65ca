/**
 * Two console processes behind a round-robin load balancer serve one signed-in browser:
 * sessions are sealed cookies any replica opens (EVOLUTION_CONSOLE_SESSION_KEYS), so no
 * request after the sign-in meets the login page, a replica's restart included, and a
 * logout ends the session on every replica (issue 30 item 4).
 */
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import { launchChromium } from '../support/browser';
import { holdRevision, writeUsersFile, type TestUser } from '../support/console';
import { startConsoleProcess, type ConsoleProcess } from '../support/console-process';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/http';
import { uniqueName } from '../support/infra';
import { pollUntil } from '../support/worker-process';
import { useMainWorker } from '../support/worker';

const fx = useMainWorker();
const app = uniqueName('replicas');
let maria: TestUser;
let env: Record<string, string>;
const replicas: ConsoleProcess[] = [];
let lb: RoundRobinProxy;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  const written = writeUsersFile([{ name: 'maria', role: 'approver', scopes: [`apps/${app}`] }]);
  maria = written.users.maria;
  env = {
    EVOLUTION_TASK_QUEUE: fx.w.taskQueue,
    EVOLUTION_CONSOLE_USERS: written.path,
    EVOLUTION_CONSOLE_SESSION_KEYS: `s1:${randomBytes(32).toString('base64')}`,
  };
  replicas.push(...(await Promise.all([startConsoleProcess(env), startConsoleProcess(env)])));
  lb = await startRoundRobinProxy(() => replicas.map((r) => r.url));
  browser = await launchChromium();
  context = await browser.newContext();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await lb?.close();
  await Promise.all(replicas.map((r) => r.stop()));
});

const pagesServedBy = (from: number) =>
  new Set(
    lb.served
      .slice(from)
      .filter((s) => s.method === 'GET' && s.status === 200 && !s.path.startsWith('/login'))
      .map((s) => s.backend),
  );

/** The browser's own cookie jar (cookies are per host, not per port) sent to each replica directly. */
async function expectEachReplicaServes(path: string): Promise<void> {
  for (const r of replicas) {
    const res = await context.request.get(`${r.url}${path}`, { maxRedirects: 0 });
    expect(res.status(), `${r.url}${path}`).toBe(200);
  }
}

describe('the console as two replicas', () => {
  let page: Page;

  it('one signed-in browser is served by both replicas alternately, and across a restart, without signing in again', async () => {
    const held = await holdRevision(fx.w, fx.store, { mode: 'app', app }, { ...WEATHER_SEED_SKILL, name: uniqueName('replicated') });
    page = await context.newPage();
    await page.goto(`${lb.url}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.fill('input[name=token]', maria.token);
    await page.click('button[type=submit]');
    await page.waitForURL(`${lb.url}/`);
    const signedInAt = lb.served.length;

    for (const path of ['/', '/activity', '/skills', `/revisions/${held.revisionId}`, '/experiments', '/']) {
      const res = await page.goto(`${lb.url}${path}`);
      expect(res?.status(), path).toBe(200);
      expect(new URL(page.url()).pathname, path).toBe(path);
    }
    expect(await page.content()).toContain(held.revisionId);
    expect(pagesServedBy(signedInAt).size).toBeGreaterThan(0);
    // Whatever order the balancer (and the browser's favicon requests) gave, each replica serves this browser's session.
    await expectEachReplicaServes('/');

    // A decision: the form (and its CSRF token) from replica 0, the post to replica 1, in the browser's session.
    const form = await (await context.request.get(`${replicas[0].url}/revisions/${held.revisionId}`)).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form)![1];
    const posted = await context.request.post(`${replicas[1].url}/revisions/${held.revisionId}/decision`, {
      form: { _csrf: csrf, decision: 'approve', comment: 'approved across replicas' },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(303);
    expect((await fx.store.findRevision(held.revisionId))!.status).toBe('active');
    // The answer (a flash message sealed into the cookie by replica 1) shows on the next page, served by either.
    await page.goto(`${lb.url}/revisions/${held.revisionId}`);
    expect(await page.textContent('.flash')).toMatch(/approved by maria/);

    // Replica 0 restarts (a deploy): the same cookie still works on the new process.
    await replicas[0].stop();
    replicas[0] = await startConsoleProcess(env);
    const afterRestart = lb.served.length;
    for (const path of ['/activity', '/skills', '/activity', '/skills']) {
      const res = await page.goto(`${lb.url}${path}`);
      expect(res?.status(), path).toBe(200);
      expect(new URL(page.url()).pathname, path).toBe(path);
    }
    expect(lb.served.slice(afterRestart).some((s) => s.backend === 0) && lb.served.slice(afterRestart).some((s) => s.backend === 1)).toBe(true);
    await expectEachReplicaServes('/activity');
  });

  it('logging out ends the session on every replica, also for a copy of the cookie', async () => {
    const copy = (await context.cookies()).find((c) => c.name === 'evolution_session')!;
    const cookie = `${copy.name}=${copy.value}`;
    const signedIn = async (url: string) => (await fetch(`${url}/activity`, { headers: { cookie }, redirect: 'manual' })).status === 200;
    expect(await signedIn(replicas[0].url)).toBe(true);
    expect(await signedIn(replicas[1].url)).toBe(true);

    await page.click('header button:has-text("Log out")');
    await page.waitForURL(`${lb.url}/login`);
    // The replica that logged out refuses at once; the other once its "not revoked" answer (10 s at most) is stale.
    for (const r of replicas) await pollUntil(`replica ${r.url} refuses the logged-out cookie`, async () => !(await signedIn(r.url)), 20_000);
    const res = await page.goto(`${lb.url}/activity`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(res?.status()).toBe(200);
  });
});
