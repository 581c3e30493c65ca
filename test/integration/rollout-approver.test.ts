/**
 * An approver acts on a live canary, as a user does: `evolution rollout status|promote|abort`
 * (the CLI as a child process) and the console (its JSON API with a bearer token, and the
 * revision page's card and form), against the real worker, Temporal and S3. The rollout's
 * own decisions are tested on the time-skipping server (test/workflow/rollout.test.ts); here
 * it looks only once an hour, so nothing but the approver decides.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { rolloutStatus } from '../../client/rollout';
import { startConsole, type RunningConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import { DEFAULT_ROLLOUT_SETTINGS, type Scope } from '../../core';
import { infraEnv } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import { holdRevision, signIn, writeUsersFile, type TestUser } from '../support/console';
import { cookiesOf } from '../support/http';
import { uniqueName } from '../support/infra';
import { useMainWorker } from '../support/worker';

const HOUR = 3_600_000;
const fx = useMainWorker({
  canary: { policy: 'all', rollout: { ...DEFAULT_ROLLOUT_SETTINGS, steps: [0.25], minSamplePerCohort: 20, checkIntervalMs: HOUR, maxDurationMs: 72 * HOUR } },
});
const app = uniqueName('rollout-app');
const scope: Scope = { mode: 'app', app };

let users: Record<string, TestUser>;
let web: RunningConsole;

beforeAll(async () => {
  let path: string;
  ({ path, users } = writeUsersFile([
    { name: 'maria', role: 'approver', scopes: [`apps/${app}`] },
    { name: 'vic', role: 'viewer', scopes: [`apps/${app}`] },
    { name: 'olga', role: 'approver', scopes: ['apps/elsewhere'] },
  ]));
  web = await startConsole({ client: fx.w.client, store: fx.store, config: fx.w.config }, consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: path }, { port: 0 }));
});
afterAll(async () => web?.close());

const run = promisify(execFile);
async function evolution(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...infraEnv() },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** v1 published, then an update v2 approved: a canary over v1 at 25 %, its rollout running. */
async function liveCanary() {
  const deps = { client: fx.w.client, store: fx.store };
  const name = uniqueName('weather');
  const v1 = await holdRevision(fx.w, fx.store, scope, { ...WEATHER_SEED_SKILL, name });
  await decideRevision(deps, v1.revisionId, { decision: 'approve', reviewer: 'maria' });
  const v2 = await holdRevision(fx.w, fx.store, scope, { ...WEATHER_SEED_SKILL, name, pitfalls: ['Say Celsius.'] }, { parentId: v1.revisionId });
  await decideRevision(deps, v2.revisionId, { decision: 'approve', reviewer: 'maria' });
  expect((await fx.store.readActive(v1.scopeKey, v1.skillId))!.pointer).toMatchObject({ revisionId: v1.revisionId, canary: { revisionId: v2.revisionId, fraction: 0.25 } });
  await vi.waitFor(async () => expect((await rolloutStatus(fx.w.client, v2.revisionId)).state).toBe('running'), { timeout: 30_000, interval: 200 });
  return { scopeKey: v1.scopeKey, skillId: v1.skillId, stable: v1.revisionId, candidate: v2.revisionId };
}

const pointerOf = async (c: { scopeKey: string; skillId: string }) => (await fx.store.readActive(c.scopeKey, c.skillId))!.pointer;

describe('an approver acts on a live canary', () => {
  it('evolution rollout: status shows where it is; promote needs a reviewer, moves it to every session, is audited and cannot happen twice', async () => {
    const c = await liveCanary();
    const status = await evolution(['rollout', 'status', c.candidate]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`${c.candidate} (skill ${c.skillId} in ${c.scopeKey}) over ${c.stable}: running`);
    expect(status.stdout).toContain('candidate gets 25.0 % of sessions (steps 25.0 %, then 100 %); 20 judged sessions per cohort before any decision');
    expect(status.stdout).toMatch(/rollback at \d{4}-\d\d-\d\dT.* unless decided before/);

    const nameless = await evolution(['rollout', 'promote', c.candidate]);
    expect(nameless.code).not.toBe(0);
    expect(nameless.stderr).toContain('--reviewer');
    expect(await pointerOf(c)).toMatchObject({ canary: { revisionId: c.candidate } });

    const promoted = await evolution(['rollout', 'promote', c.candidate, '--reviewer', 'alice', '--comment', 'looks right', '--json']);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(JSON.parse(promoted.stdout)).toMatchObject({ state: 'promoted', result: { outcome: 'promoted', decidedBy: 'alice' } });
    const pointer = await pointerOf(c);
    expect(pointer).toMatchObject({ revisionId: c.candidate, deleted: false });
    expect(pointer).not.toHaveProperty('canary');
    const audit = (await fx.store.listAudit(c.scopeKey, c.skillId)).filter((e) => e.action.startsWith('canary_')).map((e) => [e.action, e.actor]);
    expect(audit).toEqual([
      ['canary_start', expect.any(String)],
      ['canary_promote', 'alice'],
    ]);

    const again = await evolution(['rollout', 'abort', c.candidate, '--reviewer', 'alice']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/rollout (ended|has ended|already)|no rollout running|promoted/);
    const unknown = await evolution(['rollout', 'status', uniqueName('rev-none')]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('has no rollout (it was not published as a canary)');
    const badAction = await evolution(['rollout', 'pause', c.candidate]);
    expect(badAction.code).not.toBe(0);
    expect(badAction.stderr).toContain("value 'pause' is invalid for argument 'ACTION'. Allowed choices are status, promote, abort.");
  }, 180_000);

  it('console: viewers see the rollout, only an approver of the scope aborts it (API and page form), under their own name', async () => {
    const c = await liveCanary();
    const api = (token: string, init: RequestInit = {}) =>
      fetch(`${web.url}/api/rollouts/${c.candidate}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, redirect: 'manual' });

    const seen = await api(users.vic.token);
    expect(seen.status).toBe(200);
    expect(await seen.json()).toMatchObject({ candidateRevisionId: c.candidate, stableRevisionId: c.stable, state: 'running', fraction: 0.25 });
    expect((await api(users.olga.token)).status).toBe(404);
    expect((await api(users.olga.token, { method: 'POST', body: JSON.stringify({ action: 'abort' }) })).status).toBe(404);
    expect((await api(users.vic.token, { method: 'POST', body: JSON.stringify({ action: 'abort' }) })).status).toBe(403);
    const invalid = await api(users.maria.token, { method: 'POST', body: JSON.stringify({ action: 'pause' }) });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain('action must be \\"promote\\" or \\"abort\\"');
    expect(await pointerOf(c)).toMatchObject({ canary: { revisionId: c.candidate } });

    // The revision page: the card for everyone who sees the scope, the buttons for approvers only.
    const vic = await signIn(web.url, users.vic.token);
    const viewerPage = await (await fetch(`${web.url}/revisions/${c.candidate}`, { headers: { cookie: vic } })).text();
    expect(viewerPage).toContain('data-testid="rollout"');
    expect(viewerPage).toContain(`Staged rollout over ${c.stable}`);
    expect(viewerPage).not.toContain('data-testid="rollout-form"');
    const maria = await signIn(web.url, users.maria.token);
    const page = await (await fetch(`${web.url}/revisions/${c.candidate}`, { headers: { cookie: maria } })).text();
    expect(page).toContain('data-testid="rollout-form"');
    const csrf = /data-testid="rollout-form"[\s\S]*?name="_csrf" value="([^"]+)"/.exec(page)![1]!;
    const posted = await fetch(`${web.url}/revisions/${c.candidate}/rollout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: maria },
      body: new URLSearchParams({ _csrf: csrf, action: 'abort', comment: 'support tickets went up' }),
    });
    expect(posted.status).toBe(303);
    // The flash travels in the session cookie the answer sets.
    const after = await (await fetch(`${web.url}${posted.headers.get('location')}`, { headers: { cookie: cookiesOf(posted) || maria } })).text();
    expect(after).toContain('Rollout rolled back by maria');

    const pointer = await pointerOf(c);
    expect(pointer).toMatchObject({ revisionId: c.stable, deleted: false });
    expect(pointer).not.toHaveProperty('canary');
    expect(await (await api(users.vic.token)).json()).toMatchObject({
      state: 'rolled_back',
      result: { outcome: 'rolled_back', decidedBy: 'maria', reason: expect.stringContaining('support tickets went up') },
    });
  }, 180_000);
});
