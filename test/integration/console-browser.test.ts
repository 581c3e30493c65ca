/**
 * The approver console in a real browser (Debian's chromium driven by playwright-core)
 * against the real worker, S3, Temporal and a real GEPA experiment. Set
 * CONSOLE_SCREENSHOTS=docs/console to refresh the README's screenshots.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { runExperiment } from '../../client/optimization';
import { startConsole, type RunningConsole } from '../../console/server';
import { consoleSettingsFromEnv } from '../../console/settings';
import type { ExperimentReport } from '../../workflows';
import { REPO_ROOT } from '../../infra/paths';
import { recentEventCounted } from '../support/counters';
import { launchChromium } from '../support/browser';
import { holdRevision, writeUsersFile, type TestUser } from '../support/console';
import { seedManagedSkill, startGepaHarness, weatherDataset, weatherRequest, type GepaHarness, type ManagedSkill } from '../support/gepa';
import { uniqueName } from '../support/infra';

const HOSTILE = '<script>window.__xss=1</script>"><img src=x onerror="window.__xss=2">';

let h: GepaHarness;
let skill: ManagedSkill;
let report: ExperimentReport;
let submitted: string;
let users: Record<string, TestUser>;
let web: RunningConsole;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function shot(page: Page, name: string) {
  const dir = process.env.CONSOLE_SCREENSHOTS;
  if (!dir) return;
  const out = join(REPO_ROOT, dir);
  mkdirSync(out, { recursive: true });
  await page.screenshot({ path: join(out, `${name}.png`) });
}

/** A fresh browser context (its own cookies) signed in with the user's token through the login page. */
async function signIn(user: TestUser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 820 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on('dialog', (d) => void d.dismiss());
  await page.goto(`${web.url}/`);
  expect(new URL(page.url()).pathname).toBe('/login');
  await page.fill('input[name=token]', user.token);
  await page.click('button[type=submit]');
  await page.waitForURL(`${web.url}/`);
  return page;
}

/** A form post made by the page's own script, returning the status (what a forged or replayed post gets). */
function postForm(page: Page, path: string, fields: Record<string, string>): Promise<number> {
  return page.evaluate(async ([p, f]) => (await fetch(p, { method: 'POST', body: new URLSearchParams(f), redirect: 'manual' })).status, [path, fields] as const);
}

beforeAll(async () => {
  h = await startGepaHarness();
  skill = await seedManagedSkill(h.store);
  report = await runExperiment(
    h.deps,
    weatherRequest(h.evaluatorQueue, weatherDataset(), { scope: skill.scope, skillId: skill.skillId, parentRevisionId: 'active', submit: true }),
  );
  submitted = report.submission.revisionId!;
  ({ users } = (() => {
    const written = writeUsersFile([
      { name: 'maria', role: 'approver', scopes: [skill.scopeKey] },
      { name: 'vic', role: 'viewer', scopes: [skill.scopeKey] },
      { name: 'olga', role: 'approver', scopes: ['apps/somewhere-else'] },
    ]);
    process.env.CONSOLE_TEST_USERS = written.path;
    return written;
  })());
  web = await startConsole(h.deps, consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: process.env.CONSOLE_TEST_USERS }, { port: 0 }));
  browser = await launchChromium();
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await web?.close();
  await h?.stop();
});

describe('approver console in chromium', () => {
  it('an approver signs in, opens the pending GEPA revision, reads its diff and evidence, and approves it; Skills shows it active', async () => {
    expect(report.submission.status).toBe('submitted');
    const page = await signIn(users.maria);
    const row = page.locator('tr', { hasText: submitted });
    await expect(row.textContent()).resolves.toContain('GEPA');
    await shot(page, 'pending');

    await row.locator('a').click();
    await page.waitForURL(`${web.url}/revisions/${submitted}`);
    expect(await page.locator('[data-testid=diff] .add').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=diff]').textContent()).toContain('--- active/SKILL.md');
    expect(await page.textContent('main')).toContain(`baseline ${report.holdout!.seedMean.toFixed(3)} → candidate ${report.holdout!.winnerMean.toFixed(3)}`);
    expect(await page.textContent('main')).toContain('externally evaluated revisions require approval');
    await shot(page, 'revision');

    await page.fill('textarea[name=comment]', 'holdout gain is convincing');
    const [approved] = await Promise.all([page.waitForNavigation(), page.click('button[value=approve]')]);
    expect(approved?.request().redirectedFrom()?.method()).toBe('POST');
    expect(new URL(page.url()).pathname).toBe(`/revisions/${submitted}`);
    expect(await page.textContent('.flash')).toContain('approved by maria; the revision is now active');
    expect(await page.locator('button[value=approve]').count()).toBe(0);
    expect((await h.store.listAudit(skill.scopeKey, skill.skillId)).find((e) => e.action === 'approve')).toMatchObject({ actor: 'maria', revisionId: submitted });

    await page.goto(`${web.url}/skills?scope=${encodeURIComponent(skill.scopeKey)}`);
    expect(await page.locator('tr', { hasText: skill.spec.name }).textContent()).toContain(submitted);
    await shot(page, 'skills');
  });

  it('rolls the skill back to the seed revision after a confirmation page', async () => {
    const page = await signIn(users.maria);
    await page.goto(`${web.url}/skills/${skill.skillId}?scope=${encodeURIComponent(skill.scopeKey)}`);
    expect(await page.textContent('[data-testid=active-revision]')).toBe(submitted);
    await page.locator('tr', { hasText: skill.revisionId }).getByText('Roll back to this').click();
    expect(await page.textContent('main')).toContain(`will load ${skill.revisionId} instead of ${submitted}`);
    expect((await h.store.readActive(skill.scopeKey, skill.skillId))!.pointer.revisionId).toBe(submitted); // nothing yet
    await shot(page, 'rollback-confirm');
    await page.fill('textarea[name=comment]', 'back to the known-good version');
    await page.click('button[value=yes]');
    await page.waitForSelector('.flash');
    expect(await page.textContent('.flash')).toContain(`${skill.revisionId} is active again; ${submitted} archived`);
    expect(await page.textContent('[data-testid=active-revision]')).toBe(skill.revisionId);
    expect((await h.store.readActive(skill.scopeKey, skill.skillId))!.pointer.revisionId).toBe(skill.revisionId);
    await shot(page, 'skill');
  });

  it('shows the experiment: score chart, lineage, holdout per case, stop and promotion reasons', async () => {
    const page = await signIn(users.maria);
    await page.goto(`${web.url}/experiments`);
    await page.locator('a', { hasText: report.experimentId }).click();
    const validated = (await page.locator('h2:has-text("Iterations") + table tbody tr td:nth-child(5)').allTextContents()).filter((t) => t !== '–');
    expect(validated.length).toBeGreaterThan(0);
    expect(await page.locator('svg circle').count()).toBe(validated.length); // one dot per child evaluated on Validation
    expect(await page.locator('svg circle[fill="#1a7f37"]').count()).toBeGreaterThan(0);
    const text = (await page.textContent('main'))!;
    expect(text).toContain(`Stop reason: ${report.stopReason}`);
    expect(text).toContain(report.promotionReason);
    expect(await page.locator('h2:has-text("Holdout") + table tbody tr').count()).toBe(report.holdout!.caseCount);
    expect(await page.locator(`a[href="/revisions/${submitted}"]`).count()).toBeGreaterThan(0);
    await shot(page, 'experiment');

    // Activity shows the scope's recent audit page, which follows the approval by one burst of the scope's usage workflow.
    await recentEventCounted(h.store, skill.scopeKey, (e) => e.action === 'approve' && e.revisionId === submitted);
    await page.goto(`${web.url}/activity?action=approve`);
    const rows = page.locator('h2:has-text("Audit log") ~ table tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    for (const t of await rows.allTextContents()) expect(t).toContain('approve');
    expect(await page.locator('tr', { hasText: submitted }).textContent()).toContain('maria');
    await shot(page, 'activity');
  });

  it('a viewer reads but cannot decide (no button; a posted decision is refused)', async () => {
    const held = await holdRevision(h.main, h.store, skill.scope, { ...skill.spec, name: uniqueName('viewer-test') });
    const page = await signIn(users.vic);
    await page.goto(`${web.url}/revisions/${held.revisionId}`);
    expect(await page.textContent('main')).toContain('You are a viewer');
    expect(await page.locator('button[value=approve]').count()).toBe(0);
    const csrf = (await page.getAttribute('input[name=_csrf]', 'value'))!;
    expect(await postForm(page, `/revisions/${held.revisionId}/decision`, { decision: 'approve', _csrf: csrf })).toBe(403);
    expect((await h.store.findRevision(held.revisionId))!.status).toBe('pending_approval');
  });

  it('a user without the scope cannot see the revision (404) nor find it in Pending', async () => {
    const page = await signIn(users.olga);
    expect(await page.locator('tr', { hasText: skill.skillId }).count()).toBe(0);
    const res = await page.goto(`${web.url}/revisions/${submitted}`);
    expect(res!.status()).toBe(404);
    const skillPage = await page.goto(`${web.url}/skills/${skill.skillId}?scope=${encodeURIComponent(skill.scopeKey)}`);
    expect(skillPage!.status()).toBe(404);
  });

  it('a form post without the CSRF token is refused', async () => {
    const held = await holdRevision(h.main, h.store, skill.scope, { ...skill.spec, name: uniqueName('csrf-test') });
    const page = await signIn(users.maria);
    expect(await postForm(page, `/revisions/${held.revisionId}/decision`, { decision: 'approve' })).toBe(403);
    expect(await postForm(page, `/skills/${skill.skillId}/rollback`, { scope: skill.scopeKey })).toBe(403);
    expect((await h.store.findRevision(held.revisionId))!.status).toBe('pending_approval');
  });

  it('renders a skill whose name and steps carry <script> and an onerror image as text', async () => {
    const spec = { ...skill.spec, name: HOSTILE, description: HOSTILE, steps: [HOSTILE, 'then <b>bold</b>'] };
    const held = await holdRevision(h.main, h.store, skill.scope, spec);
    const page = await signIn(users.maria);
    let dialogs = 0;
    page.on('dialog', () => dialogs++);
    expect(await page.locator('tr', { hasText: HOSTILE }).count()).toBe(1);
    await page.goto(`${web.url}/revisions/${held.revisionId}`);
    expect(await page.textContent('h1')).toBe(HOSTILE);
    expect(await page.textContent('[data-testid=skill-md]')).toContain(`1. ${HOSTILE}`);
    expect(await page.textContent('[data-testid=diff]')).toContain(HOSTILE);
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toBe(0);
    await shot(page, 'revision-hostile');
  });

  it('a decision made elsewhere (CLI, another approver) shows up without a manual reload', async () => {
    const held = await holdRevision(h.main, h.store, skill.scope, { ...skill.spec, name: uniqueName('live-test') });
    const page = await signIn(users.maria);
    await page.goto(`${web.url}/revisions/${held.revisionId}`);
    expect(await page.locator('button[value=approve]').count()).toBe(1);
    await decideRevision(h.deps, held.revisionId, { decision: 'reject', reviewer: 'cli-user', comment: 'duplicate' });
    // The page polls and reloads itself; nothing here navigates.
    await page.waitForSelector('button[value=approve]', { state: 'detached', timeout: 30_000 });
    expect(await page.textContent('main .badge')).toBe('rejected');
    expect(await page.locator('tr', { hasText: 'human' }).textContent()).toContain('by cli-user');
  });

  it("a link followed while the page's poll sees a change is not cut short by the page reloading", async () => {
    const held = await holdRevision(h.main, h.store, skill.scope, { ...skill.spec, name: uniqueName('slow-link') });
    const page = await signIn(users.maria);
    await page.goto(`${web.url}/`);
    const link = page.locator(`a[href="/revisions/${held.revisionId}"]`);
    expect(await link.count()).toBe(1);
    // The revision page answers slowly (a loaded server); meanwhile a decision made elsewhere
    // changes what Pending lists, which the page's poll (every 3 s) sees.
    // The page itself only: a glob would also hold the revision page's live poll (/live/revisions/…), whose
    // fetch can still be in flight when the test ends and its page closes.
    await page.route(`${web.url}/revisions/${held.revisionId}`, async (route) => {
      const answer = await route.fetch().catch(() => undefined); // the page closed first: nothing to answer
      if (!answer) return;
      await new Promise((r) => setTimeout(r, 8_000));
      await route.fulfill({ response: answer }).catch(() => undefined); // a cut-short navigation no longer takes it
    });
    await decideRevision(h.deps, held.revisionId, { decision: 'reject', reviewer: 'cli-user', comment: 'decided elsewhere' });
    await link.click();
    await page.waitForURL(`${web.url}/revisions/${held.revisionId}`, { timeout: 30_000 });
    expect(await page.textContent('main .badge')).toBe('rejected');
  });

  it("a decision whose answer is slow shows that answer: the page's live poll does not reload over it", async () => {
    const held = await holdRevision(h.main, h.store, skill.scope, { ...skill.spec, name: uniqueName('slow-answer') });
    const page = await signIn(users.maria);
    await page.goto(`${web.url}/revisions/${held.revisionId}`);
    // The server decides at once; its answer reaches the browser only after the page's next poll
    // (every 3 s) has seen the revision change, as on a loaded server or a slow link.
    await page.route(`**/revisions/${held.revisionId}/decision`, async (route) => {
      const answer = await route.fetch({ maxRedirects: 0 }).catch(() => undefined); // the page closed first: nothing to answer
      if (!answer) return;
      await new Promise((r) => setTimeout(r, 4_000));
      await route.fulfill({ response: answer }).catch(() => undefined); // a cut-short navigation no longer takes it
    });
    const [shown] = await Promise.all([page.waitForNavigation({ timeout: 30_000 }), page.click('button[value=reject]')]);
    expect(shown?.request().redirectedFrom()?.method()).toBe('POST');
    expect(await page.textContent('.flash')).toContain('rejected by maria; the revision is now rejected');
  });
});
