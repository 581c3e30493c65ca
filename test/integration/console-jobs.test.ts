import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { showLearningJob } from '../../client/jobs';
import { learningJobWorkflowId } from '../../core/workflow-ids';
import { searchAttributes } from '../../core/search-attributes';
import type { JobView } from '../../client/jobs';
import { writeUsersFile, type TestUser } from '../support/console';
import { cookiesOf } from '../support/http';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { VALID_SEGMENT } from '../support/workflow-inputs';
import { pollUntil } from '../support/worker-process';
import { useMainWorker } from '../support/worker';

// Issue 36 items 1-3 in the console: a scope's learning jobs with their state, the root cause
// of a failed one and whether its cursor moved (the same client calls as `evolution jobs`),
// and a re-run for approvers, through the JSON API (bearer) and the page (session + CSRF).
// Real worker, Temporal, S3 and model server.
const fx = useMainWorker();
const app = uniqueName('console-jobs');
const scopeKey = `apps/${app}`;

let users: Record<string, TestUser>;
let web: RunningConsole;
let completedJobId: string;
let failedJobId: string;

function api(path: string, token: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(`${web.url}${path}`, { ...init, headers, redirect: 'manual' });
}
const retry = (token: string, jobId: string) => api('/api/jobs/retry', token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jobId }) });
const jobsOf = async (token: string) => ((await (await api(`/api/jobs?scope=${encodeURIComponent(scopeKey)}`, token)).json()) as { jobs: JobView[] }).jobs;

async function signIn(token: string): Promise<string> {
  const form = await fetch(`${web.url}/login`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const signedIn = await fetch(`${web.url}/login`, { method: 'POST', redirect: 'manual', headers: { cookie: cookiesOf(form) }, body: new URLSearchParams({ token, _csrf: csrf }) });
  return signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith('evolution_session='))!
    .split(';')[0]!;
}

beforeAll(async () => {
  let usersFile: string;
  ({ path: usersFile, users } = writeUsersFile([
    { name: 'maria', role: 'approver', scopes: [scopeKey] },
    { name: 'vic', role: 'viewer', scopes: ['apps/*'] },
    { name: 'olga', role: 'admin', scopes: ['apps/elsewhere'] },
  ]));
  web = await startConsole({ client: fx.w.client, store: fx.store, config: fx.w.config }, consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: usersFile }, { port: 0 }));

  // A job that completes, and one that fails for good on its input (a segment without its
  // stored events): started as the session workflow starts jobs, under the job's own id.
  const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
  const started = await startLearningJob(deps, { app, user: 'u1', sessionId: 's-ok', events: exampleSession('weather-report') });
  completedJobId = started.jobWorkflowId;
  await waitForLearningJob(deps, completedJobId, { timeoutMs: 180_000 });
  failedJobId = learningJobWorkflowId({ scopeKey, sessionId: 's-bad', segmentId: 'seg-1' });
  const handle = await fx.w.client.workflow.start('learningJobWorkflow', {
    taskQueue: fx.w.taskQueue,
    workflowId: failedJobId,
    args: [{ segment: { ...VALID_SEGMENT, app, sessionId: 's-bad', scopeKey, payloadRef: null } }],
    searchAttributes: searchAttributes({ kind: 'learning-job', scopeKey }),
    workflowExecutionTimeout: '5 minutes',
  });
  await handle.result().catch(() => undefined);
  // The list is a visibility query: it sees both once Temporal has indexed them.
  await pollUntil('both jobs in the scope listing', async () => (await jobsOf(users.maria!.token)).length === 2, 60_000);
}, 300_000);

afterAll(async () => {
  await web?.close();
});

describe('console jobs (real worker, Temporal, S3 and HTTP)', () => {
  it("lists a scope's jobs as `evolution jobs` does: the completed one's outcome, the failed one's root cause and cursor", async () => {
    const jobs = await jobsOf(users.maria!.token);
    const completed = jobs.find((j) => j.jobId === completedJobId)!;
    expect(completed.workflowStatus).toBe('COMPLETED');
    expect(completed.outcome).toMatchObject({ jobId: completedJobId, status: 'reviewed' });
    const failed = jobs.find((j) => j.jobId === failedJobId)!;
    expect(failed.workflowStatus).toBe('FAILED');
    expect(failed.failedBecause).toMatchObject({ cursorMoved: false });
    expect(failed.failedBecause!.error).toMatch(/segment\.payloadRef: expected an object, got null/);
    // One source of truth: the console's answer is the client's.
    const shown = await showLearningJob({ client: fx.w.client, store: fx.store }, failedJobId);
    expect(failed.failedBecause).toEqual(shown.failedBecause);

    expect((await api(`/api/jobs?scope=${encodeURIComponent(scopeKey)}`, users.olga!.token)).status).toBe(404);
    expect((await api('/api/jobs', users.maria!.token)).status).toBe(400);
    expect((await api(`/api/jobs?scope=${encodeURIComponent(scopeKey)}&limit=0`, users.maria!.token)).status).toBe(400);
  });

  it('re-runs a failed job for an approver (403 for a viewer, 404 outside the scopes, 409 for a completed job)', async () => {
    const before = await fx.w.client.workflow.getHandle(failedJobId).describe();
    expect((await retry(users.vic!.token, failedJobId)).status).toBe(403);
    expect((await retry(users.olga!.token, failedJobId)).status).toBe(404);
    expect((await retry(users.maria!.token, 'not-a-job')).status).toBe(400);
    const refused = await retry(users.maria!.token, completedJobId);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(/only a failed job can be re-run/);

    const ok = await retry(users.maria!.token, failedJobId);
    expect(ok.status).toBe(200);
    const retried = (await ok.json()) as { jobId: string; previousRunId: string; runId: string };
    expect(retried).toMatchObject({ jobId: failedJobId, previousRunId: before.runId });
    expect(retried.runId).not.toBe(before.runId);
    // The new run is the job's current one; who asked is in its history, as the reset's reason.
    const after = await fx.w.client.workflow.getHandle(failedJobId).describe();
    expect(after.runId).toBe(retried.runId);
    const history = await fx.w.client.workflow.getHandle(failedJobId, retried.runId).fetchHistory();
    const reasons = (history.events ?? []).map((e) => e.workflowTaskFailedEventAttributes?.failure?.message).filter(Boolean);
    expect(reasons).toContain('evolution job retry by maria');
    await fx.w.client.workflow
      .getHandle(failedJobId)
      .result()
      .catch(() => undefined);
  });

  it('the page: states, root cause and cursor; a Re-run button for approvers only, posted with the CSRF token', async () => {
    const maria = await signIn(users.maria!.token);
    const page = await fetch(`${web.url}/jobs?scope=${encodeURIComponent(scopeKey)}`, { headers: { cookie: maria } });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain(completedJobId);
    expect(text).toContain(failedJobId);
    expect(text).toMatch(/segment\.payloadRef: expected an object, got null/);
    expect(text).toContain('cursor not moved');
    expect(text).toContain('Re-run</button>');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(text)![1]!;

    const forged = await fetch(`${web.url}/jobs/retry`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: maria },
      body: new URLSearchParams({ jobId: failedJobId, scope: scopeKey }),
    });
    expect(forged.status).toBe(403);
    const before = await fx.w.client.workflow.getHandle(failedJobId).describe();
    const posted = await fetch(`${web.url}/jobs/retry`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: maria },
      body: new URLSearchParams({ jobId: failedJobId, scope: scopeKey, _csrf: csrf }),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`/jobs?scope=${encodeURIComponent(scopeKey)}`);
    const flashCookie =
      posted.headers
        .getSetCookie()
        .find((c) => c.startsWith('evolution_session='))
        ?.split(';')[0] ?? maria;
    const shown = await (await fetch(`${web.url}${posted.headers.get('location')}`, { headers: { cookie: flashCookie } })).text();
    expect(shown).toContain(`${failedJobId}: re-running from its first step`);
    expect((await fx.w.client.workflow.getHandle(failedJobId).describe()).runId).not.toBe(before.runId);

    const vic = await signIn(users.vic!.token);
    const viewerPage = await (await fetch(`${web.url}/jobs?scope=${encodeURIComponent(scopeKey)}`, { headers: { cookie: vic } })).text();
    expect(viewerPage).toContain(failedJobId);
    expect(viewerPage).not.toContain('Re-run</button>');
  });
});
