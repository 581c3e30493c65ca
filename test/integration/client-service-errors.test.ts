import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvolutionConfig } from '../../core';
import { createSkillStore, type SkillStore } from '../../storage';
import { connectTemporal, type Connected } from '../../runtime/connection';
import { infraEnv, infraUp } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';
import { startConsole, type RunningConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import { writeUsersFile, type TestUser } from '../support/console';
import { cookiesOf } from '../support/http';
import {
  decideRevision,
  getExperiment,
  listLearningJobs,
  listOpenApprovals,
  listSkillRevisions,
  putDataset,
  retryLearningJob,
  rollbackSkill,
  ServiceUnavailableError,
  showLearningJob,
  SkillLoadTool,
  SkillRepository,
  startLearningJob,
  waitForLearningJob,
} from '../../client/index';
import { crashService, realServices, uniqueName, whileFrozen } from '../support/infra';
import { exampleSession } from '../support/sessions';

// Issue 36 item 4: every client call throws the same typed, one-line error naming the service
// that does not answer, within the client deadline (EVOLUTION_CLIENT_CONNECT_TIMEOUT, 3 s
// here), where startLearningJob threw a raw `connect ECONNREFUSED` (S3 down) or hung ~19 s
// before a raw `ServiceError` (Temporal down). The real S3 and Temporal are killed and
// restarted (same ports, same data). The application answers the same: the CLI's commands
// and the console's pages and API (503) say the one line within the deadline, also while
// Temporal or S3 accepts connections but does not answer (its process stopped with SIGSTOP).
const TIMEOUT_MS = 3_000;
/** The bound is asserted loosely: the machine is shared and loaded. */
const BOUND_MS = TIMEOUT_MS + 20_000;
/** Long past the bound: a call that hangs fails its assertion (and a frozen service is thawed) instead of timing the test out. */
const GIVE_UP_MS = 2 * BOUND_MS;

let config: EvolutionConfig;
let temporal: Connected;
let store: SkillStore;
let web: RunningConsole;
let ops: TestUser;
let signedIn: string;
const consoleApp = uniqueName('console-down');
const consoleScope = `apps/${consoleApp}`;

beforeAll(async () => {
  const base = await realServices(['s3', 'temporal']);
  config = { ...base, runtime: { ...base.runtime, clientConnectTimeoutMs: TIMEOUT_MS } };
  temporal = await connectTemporal(config);
  store = createSkillStore(config.s3);
  const { path, users } = writeUsersFile([{ name: 'ops', role: 'approver', scopes: [consoleScope] }]);
  ops = users.ops!;
  web = await startConsole({ client: temporal.client, store, config }, consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: path }, { port: 0 }));
  const form = await fetch(`${web.url}/login`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const login = await fetch(`${web.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookiesOf(form) },
    body: new URLSearchParams({ token: ops.token, _csrf: csrf }),
  });
  signedIn = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('evolution_session='))!
    .split(';')[0]!;
});

afterAll(async () => {
  await web?.close();
  await temporal?.close();
});

const run = promisify(execFile);

/** Waits (at most a minute) until this file's Temporal connection answers a call within the client deadline. */
async function temporalAnswers(): Promise<void> {
  for (const giveUp = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 500))) {
    try {
      await temporal.client.connection.withDeadline(Date.now() + TIMEOUT_MS, () => temporal.client.workflowService.getSystemInfo({}));
      return;
    } catch (e) {
      if (Date.now() > giveUp) throw e;
    }
  }
}

/** `evolution ARGS` against the local services, with the client deadline of this file. */
async function evolution(args: string[]): Promise<{ code: number; stderr: string; ms: number }> {
  const t0 = Date.now();
  try {
    const r = await run(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...infraEnv(), EVOLUTION_CLIENT_CONNECT_TIMEOUT: `${TIMEOUT_MS / 1000}s` },
      timeout: 120_000,
    });
    return { code: 0, stderr: r.stderr, ms: Date.now() - t0 };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr, ms: Date.now() - t0 };
  }
}

/** The CLI's answer: exit 1 and the one line of the vocabulary, within the bound (plus the CLI's own start-up). */
function expectCliUnreachable(what: string, r: { code: number; stderr: string; ms: number }, service: string, address: string, variable: string): void {
  expect(r.code, `${what}: ${r.stderr}`).toBe(1);
  const lines = r.stderr.trim().split('\n');
  expect(lines, what).toHaveLength(1);
  const [command] = what.split(' ');
  expect(lines[0], what).toMatch(new RegExp(`^evolution ${command}: ${oneLine(service, address, variable).source.slice(1)}`));
  expect(r.ms, `${what} took ${r.ms} ms`).toBeLessThan(BOUND_MS + 30_000);
}

/** The console's answer: 503 and the same line as JSON, within the bound. */
async function expectConsoleUnreachable(path: string, service: string, address: string, variable: string): Promise<void> {
  const t0 = Date.now();
  const res = await fetch(`${web.url}${path}`, { headers: { authorization: `Bearer ${ops.token}` }, signal: AbortSignal.timeout(GIVE_UP_MS) });
  const ms = Date.now() - t0;
  expect(res.status, path).toBe(503);
  const body = (await res.json()) as { error: string; message: string };
  expect(body.error, path).toBe('ServiceUnavailableError');
  expect(body.message, path).toMatch(oneLine(service, address, variable));
  expect(ms, `${path} took ${ms} ms`).toBeLessThan(BOUND_MS);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/`]/g, '\\$&');
const oneLine = (service: string, address: string, variable: string) => new RegExp(`^${service} at ${escape(address)} cannot be reached \\([^)]+\\)${escape(remedy(variable))}$`);

const remedy = (variable: string) => `: run \`npx evolution infra up\` for the local services, or set ${variable} to where it runs`;

function orGiveUp<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer after ${GIVE_UP_MS} ms`)), GIVE_UP_MS);
  });
  return Promise.race([p, giveUp]).finally(() => clearTimeout(timer));
}

/** Runs a call that must fail, with how long it took. */
async function failure(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const t0 = Date.now();
  const error = await orGiveUp(call()).then(
    () => new Error('expected the call to fail'),
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - t0 };
}

function expectUnreachable(what: string, r: { error: unknown; ms: number }, service: string, address: string, variable: string): void {
  expect(r.error, what).toBeInstanceOf(ServiceUnavailableError);
  const e = r.error as ServiceUnavailableError;
  expect(e.service, what).toBe(service);
  expect(e.address, what).toBe(address);
  expect(e.message, what).toMatch(
    new RegExp(`^${service} at ${address.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} cannot be reached \\([^)]+\\)${remedy(variable).replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')}$`),
  );
  expect(r.ms, `${what} took ${r.ms} ms`).toBeLessThan(BOUND_MS);
}

describe('client calls while a service is down', () => {
  it('S3 down: each call throws the ServiceUnavailableError naming S3, as the CLI words it', async () => {
    const app = uniqueName('s3-down');
    const deps = { client: temporal.client, store, config };
    const endpoint = config.s3.endpoint!;
    await crashService('s3');
    try {
      expectUnreachable(
        'startLearningJob',
        await failure(() => startLearningJob(deps, { app, user: 'u1', sessionId: 's1', events: exampleSession('weather-report') })),
        'S3',
        endpoint,
        'S3_ENDPOINT',
      );
      expectUnreachable('listSkillRevisions', await failure(() => listSkillRevisions(store, `apps/${app}`, 'skill-1')), 'S3', endpoint, 'S3_ENDPOINT');
      expectUnreachable('SkillRepository.list', await failure(() => new SkillRepository(store, { mode: 'app', app }).list()), 'S3', endpoint, 'S3_ENDPOINT');
      expectUnreachable(
        'putDataset',
        await failure(() => putDataset(store, { id: uniqueName('ds'), version: '1', feedback: [{ id: 'c1', input: 'x' }], validation: [{ id: 'c2', input: 'y' }] })),
        'S3',
        endpoint,
        'S3_ENDPOINT',
      );
      // The application says the same: the CLI, and the console (503). Job views need no
      // storage (jobs waiting for it are what an operator looks for during an outage).
      expectCliUnreachable('pending --app', await evolution(['pending', '--app', consoleApp]), 'S3', endpoint, 'S3_ENDPOINT');
      await expectConsoleUnreachable(`/api/skills?scope=${encodeURIComponent(consoleScope)}`, 'S3', endpoint, 'S3_ENDPOINT');
      const jobs = await evolution(['jobs', '--app', consoleApp]);
      expect(jobs, jobs.stderr).toMatchObject({ code: 0, stderr: '' });
      expect((await fetch(`${web.url}/api/jobs?scope=${encodeURIComponent(consoleScope)}`, { headers: { authorization: `Bearer ${ops.token}` } })).status).toBe(200);
    } finally {
      await infraUp({ only: ['s3'] });
    }
  }, 300_000);

  it('Temporal down: each call throws the ServiceUnavailableError naming Temporal within the client deadline', async () => {
    const app = uniqueName('temporal-down');
    const scopeKey = `apps/${app}`;
    const deps = { client: temporal.client, store, config };
    const jobId = `learning/${scopeKey}/s1/0123456789abcdef0123456789abcdef`;
    const address = config.temporal.address;
    await crashService('temporal');
    try {
      const calls: [string, () => Promise<unknown>][] = [
        ['startLearningJob', () => startLearningJob(deps, { app, user: 'u1', sessionId: 's1', events: exampleSession('weather-report') })],
        ['waitForLearningJob', () => waitForLearningJob(deps, jobId)],
        ['showLearningJob', () => showLearningJob(deps, jobId)],
        ['listLearningJobs', () => listLearningJobs(deps, scopeKey)],
        ['retryLearningJob', () => retryLearningJob(deps, jobId)],
        ['listOpenApprovals', () => listOpenApprovals(temporal.client, { scopeKeys: [scopeKey] })],
        ['decideRevision', () => decideRevision(deps, 'rev-unknown', { decision: 'approve', reviewer: 'r' })],
        ['rollbackSkill', () => rollbackSkill(deps, { scopeKey, skillId: 'skill-1', reviewer: 'r' })],
        ['getExperiment', () => getExperiment(deps, uniqueName('exp'))],
      ];
      for (const [what, call] of calls) expectUnreachable(what, await failure(call), 'Temporal', address, 'TEMPORAL_ADDRESS');
      expectCliUnreachable('jobs --app', await evolution(['jobs', '--app', consoleApp]), 'Temporal', address, 'TEMPORAL_ADDRESS');
      expectCliUnreachable('pending --app', await evolution(['pending', '--app', consoleApp]), 'Temporal', address, 'TEMPORAL_ADDRESS');
      await expectConsoleUnreachable('/api/pending', 'Temporal', address, 'TEMPORAL_ADDRESS');
      await expectConsoleUnreachable(`/api/jobs?scope=${encodeURIComponent(consoleScope)}`, 'Temporal', address, 'TEMPORAL_ADDRESS');
      // A page says it in its body, with the same status.
      const page = await fetch(`${web.url}/jobs?scope=${encodeURIComponent(consoleScope)}`, { headers: { cookie: signedIn } });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain(`Temporal at ${address} cannot be reached`);
    } finally {
      await infraUp({ only: ['temporal'] });
    }
  }, 600_000);

  it('Temporal accepting connections but not answering (stopped with SIGSTOP): the CLI, the console and the client answer within the deadline', async () => {
    const scopeKey = `apps/${uniqueName('temporal-hung')}`;
    const hungDeps = { client: temporal.client, store, config };
    const address = config.temporal.address;
    await whileFrozen('temporal', async () => {
      expectUnreachable('listLearningJobs', await failure(() => listLearningJobs(hungDeps, scopeKey)), 'Temporal', address, 'TEMPORAL_ADDRESS');
      await expectConsoleUnreachable(`/api/jobs?scope=${encodeURIComponent(consoleScope)}`, 'Temporal', address, 'TEMPORAL_ADDRESS');
      // The CLI's probe connects (the kernel accepts for the stopped server): the connection itself must give up in time.
      expectCliUnreachable('jobs --app', await evolution(['jobs', '--app', consoleApp]), 'Temporal', address, 'TEMPORAL_ADDRESS');
    });
  }, 300_000);

  it('S3 accepting connections but not answering (stopped with SIGSTOP): the client, the skill repository, the CLI and the console answer within the deadline', async () => {
    // Where the SDK's socket timeout (30 s) and attempts (3) made each call take 30-90 s: each S3
    // request of a client call has the client deadline to answer (storage/client-deadline.ts).
    const app = uniqueName('s3-hung');
    const scope = { mode: 'app' as const, app };
    const deps = { client: temporal.client, store, config };
    const endpoint = config.s3.endpoint!;
    // Only S3 is to blame here: the tests before stopped and froze Temporal, and on a loaded machine this
    // connection may still be reconnecting (a fresh-clone run at load 10 saw decideRevision's probe blame Temporal).
    await temporalAnswers();
    await whileFrozen('s3', async () => {
      // A call bounded as a whole (its Temporal requests share the deadline), one that waits for
      // a workflow (each S3 request bounded), and calls on the store alone.
      expectUnreachable(
        'startLearningJob',
        await failure(() => startLearningJob(deps, { app, user: 'u1', sessionId: 's1', events: exampleSession('weather-report') })),
        'S3',
        endpoint,
        'S3_ENDPOINT',
      );
      expectUnreachable('decideRevision', await failure(() => decideRevision(deps, 'rev-unknown', { decision: 'approve', reviewer: 'r' })), 'S3', endpoint, 'S3_ENDPOINT');
      expectUnreachable('listSkillRevisions', await failure(() => listSkillRevisions(store, `apps/${app}`, 'skill-1')), 'S3', endpoint, 'S3_ENDPOINT');
      expectUnreachable(
        'putDataset',
        await failure(() => putDataset(store, { id: uniqueName('ds'), version: '1', feedback: [{ id: 'c1', input: 'x' }], validation: [{ id: 'c2', input: 'y' }] })),
        'S3',
        endpoint,
        'S3_ENDPOINT',
      );
      // The skill repository (no Temporal client) and the skill_load tool an agent is given.
      const repository = new SkillRepository(store, scope, { clientTimeoutMs: TIMEOUT_MS });
      expectUnreachable('SkillRepository.list', await failure(() => repository.list()), 'S3', endpoint, 'S3_ENDPOINT');
      const t0 = Date.now();
      const tool = await orGiveUp(new SkillLoadTool(new SkillRepository(store, scope, { clientTimeoutMs: TIMEOUT_MS })).definition());
      expect(tool.function.description).toContain('(skills are temporarily unavailable)');
      expect(Date.now() - t0, 'skill_load definition').toBeLessThan(BOUND_MS);
      // The application: the CLI's commands on the store (the TCP probe connects: the requests must give up), and the console.
      expectCliUnreachable('skills --app', await evolution(['skills', '--app', consoleApp]), 'S3', endpoint, 'S3_ENDPOINT');
      expectCliUnreachable('metrics --app', await evolution(['metrics', '--app', consoleApp]), 'S3', endpoint, 'S3_ENDPOINT');
      await expectConsoleUnreachable(`/api/skills?scope=${encodeURIComponent(consoleScope)}`, 'S3', endpoint, 'S3_ENDPOINT');
      const started = Date.now();
      const page = await fetch(`${web.url}/skills?scope=${encodeURIComponent(consoleScope)}`, { headers: { cookie: signedIn }, signal: AbortSignal.timeout(GIVE_UP_MS) });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain(`S3 at ${endpoint} cannot be reached (no answer before the deadline)`);
      expect(Date.now() - started, '/skills page').toBeLessThan(BOUND_MS);
    });
    // Thawed, the same calls answer again.
    expect(await listSkillRevisions(store, `apps/${app}`, 'skill-1')).toEqual([]);
  }, 600_000);
});
