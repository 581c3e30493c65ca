/**
 * The console's Jobs page in a real browser (Debian's chromium driven by playwright-core)
 * against the real worker, Temporal, S3 and model server: what console-jobs.test.ts checks
 * through HTTP, as an approver and a viewer use it (issue 36 items 2 and 3).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { listLearningJobs } from '../../client/jobs';
import { startConsole, type RunningConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import { learningJobWorkflowId } from '../../core/workflow-ids';
import { searchAttributes } from '../../core/search-attributes';
import { launchChromium } from '../support/browser';
import { writeUsersFile, type TestUser } from '../support/console';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { VALID_SEGMENT } from '../support/workflow-inputs';
import { pollUntil } from '../support/worker-process';
import { useMainWorker } from '../support/worker';

const fx = useMainWorker();
const app = uniqueName('console-jobs-browser');
const scopeKey = `apps/${app}`;
const jobsPath = `/jobs?scope=${encodeURIComponent(scopeKey)}`;

let users: Record<string, TestUser>;
let web: RunningConsole;
let browser: Browser;
const contexts: BrowserContext[] = [];
let completedJobId: string;
let failedJobId: string;

/** A fresh browser context (its own cookies) signed in with the user's token through the login page. */
async function signIn(user: TestUser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 820 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${web.url}/`);
  expect(new URL(page.url()).pathname).toBe('/login');
  await page.fill('input[name=token]', user.token);
  await page.click('button[type=submit]');
  await page.waitForURL(`${web.url}/`);
  return page;
}

/** The page's row of one job (its id is in the first cell). */
const rowOf = (page: Page, jobId: string) => page.locator('tbody tr', { has: page.locator('code', { hasText: jobId }) });

beforeAll(async () => {
  let usersFile: string;
  ({ path: usersFile, users } = writeUsersFile([
    { name: 'maria', role: 'approver', scopes: [scopeKey] },
    { name: 'vic', role: 'viewer', scopes: [scopeKey] },
  ]));
  web = await startConsole({ client: fx.w.client, store: fx.store, config: fx.w.config }, consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: usersFile }, { port: 0 }));

  // As console-jobs.test.ts makes them: a job that completes, and one that fails for good on
  // its input (a segment without its stored events), started under the job's own id.
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
  // The page lists a visibility query: it shows both once Temporal has indexed them.
  await pollUntil('both jobs in the scope listing', async () => (await listLearningJobs(deps, scopeKey)).length === 2, 60_000);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await web?.close();
});

describe('console Jobs page in chromium', () => {
  it("an approver sees the scope's completed and failed jobs, the failure's root cause and cursor, re-runs the failed one from the page and sees the job's new run", async () => {
    const page = await signIn(users.maria!);
    await page.goto(`${web.url}${jobsPath}`);
    expect(await page.textContent('h2')).toBe(`Learning jobs in ${scopeKey}`);

    const completed = rowOf(page, completedJobId);
    expect(await completed.locator('td.job-state').textContent()).toContain('completed');
    expect(await completed.locator('td.job-details').textContent()).toMatch(/^\s*reviewed — /);
    expect(await completed.locator('button', { hasText: 'Re-run' }).count()).toBe(0);

    const failed = rowOf(page, failedJobId);
    expect(await failed.locator('td.job-state').textContent()).toContain('failed');
    expect(await failed.locator('.root-cause').textContent()).toMatch(/segment\.payloadRef: expected an object, got null/);
    expect(await failed.locator('.cursor').textContent()).toContain('cursor not moved: the delta is reviewed again by a re-run');

    const before = await fx.w.client.workflow.getHandle(failedJobId).describe();
    await Promise.all([page.waitForURL(`${web.url}${jobsPath}`), failed.locator('button', { hasText: 'Re-run' }).click()]);
    const after = await fx.w.client.workflow.getHandle(failedJobId).describe();
    expect(after.runId).not.toBe(before.runId);
    // The page says what happened: a new run of the same job, the failed one kept in history.
    expect(await page.textContent('.flash')).toBe(`${failedJobId}: re-running from its first step (run ${after.runId}; the failed run ${before.runId} stays in history)`);
    // The job is listed once, as its new run (visibility keeps the failed run beside it), once
    // Temporal has indexed it; its input is still invalid, so the new run fails again for the same
    // reason, and the page offers another re-run.
    const rerun = rowOf(page, failedJobId);
    const newRun = after.startTime.toISOString();
    await pollUntil(
      'the new run, ended, on the page',
      async () => {
        await page.reload();
        return (await rerun.locator('span[title]').getAttribute('title')) === newRun && (await rerun.locator('td.job-state').textContent())?.trim() === 'failed';
      },
      60_000,
    );
    expect(await rerun.count()).toBe(1);
    expect(await rerun.locator('.root-cause').textContent()).toMatch(/segment\.payloadRef: expected an object, got null/);
    expect(await rerun.locator('.cursor').textContent()).toContain('cursor not moved');
    expect(await rerun.locator('button', { hasText: 'Re-run' }).count()).toBe(1);
    const history = await fx.w.client.workflow.getHandle(failedJobId, after.runId).fetchHistory();
    expect((history.events ?? []).map((e) => e.workflowTaskFailedEventAttributes?.failure?.message)).toContain('evolution job retry by maria');
  });

  it('a viewer sees the same jobs and no re-run control', async () => {
    const page = await signIn(users.vic!);
    await page.goto(`${web.url}${jobsPath}`);
    expect(await rowOf(page, failedJobId).count()).toBe(1);
    expect(await rowOf(page, failedJobId).locator('.root-cause').textContent()).toMatch(/segment\.payloadRef: expected an object, got null/);
    expect(await rowOf(page, completedJobId).locator('td.job-state').textContent()).toContain('completed');
    expect(await page.locator('form[action="/jobs/retry"]').count()).toBe(0);
    expect(await page.locator('button', { hasText: 'Re-run' }).count()).toBe(0);
  });
});
