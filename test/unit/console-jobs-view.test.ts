import { describe, expect, it } from 'vitest';
import { jobsTable } from '../../console/routes/jobs';
import type { JobView } from '../../client/jobs';
import type { ConsoleSession } from '../../console/sessions';
import type { ConsoleUser } from '../../console/users';

const render = async (h: unknown) => String(await h).replace(/\s+</g, '<');
const approver: ConsoleUser = { name: 'maria', role: 'approver', scopes: ['apps/shop'] };
const viewer: ConsoleUser = { name: 'vic', role: 'viewer', scopes: ['apps/*'] };
const session = (user: ConsoleUser): ConsoleSession => ({ id: 's', user, csrf: 'csrf-token', expiresAt: Date.now() + 60_000, source: 'users-file' });

const waiting: JobView = {
  jobId: 'learning/apps/shop/s1/seg-1',
  workflowStatus: 'RUNNING',
  startedAt: '2026-12-05T10:00:00.000Z',
  waiting: {
    on: 'storage',
    step: 'advanceCursorAndPlan',
    since: '2026-12-05T10:00:05.000Z',
    attempt: 7,
    lastFailure: 'S3 at http://127.0.0.1:8333 cannot be reached (ECONNREFUSED)',
  },
};
const failed: JobView = {
  jobId: 'learning/apps/shop/s2/seg-1',
  workflowStatus: 'FAILED',
  startedAt: '2026-12-05T09:00:00.000Z',
  failure: 'S3 at http://127.0.0.1:8333 cannot be reached (ECONNREFUSED)',
  failedBecause: {
    step: 'publishRevision',
    attempts: 15,
    retryState: 'TIMEOUT',
    type: 'ServiceUnavailableError',
    error: 'S3 at http://127.0.0.1:8333 cannot be reached (ECONNREFUSED)',
    service: 'S3',
    address: 'http://127.0.0.1:8333',
    cursorMoved: true,
  },
};

describe('console jobs view', () => {
  it('says what a waiting job waits for and why a failed one failed, with its cursor, in the CLI words', async () => {
    const out = await render(jobsTable([waiting, failed], 'apps/shop', approver, session(approver)));
    expect(out).toContain('waiting for storage since 2026-12-05T10:00:05.000Z (advanceCursorAndPlan, attempt 7: S3 at http://127.0.0.1:8333 cannot be reached (ECONNREFUSED))');
    expect(out).toContain('step publishRevision, attempt 15, retries stopped: TIMEOUT; S3 at http://127.0.0.1:8333 could not be reached');
    expect(out).toContain('[ServiceUnavailableError]');
    expect(out).toContain('cursor moved: the delta is consumed and the decision stored; a re-run applies it');
    // One Re-run form, for the failed job only, carrying the session's CSRF token.
    expect(out.match(/<form method="post" action="\/jobs\/retry">/g)).toHaveLength(1);
    expect(out).toContain(`<input type="hidden" name="jobId" value="${failed.jobId}" />`);
    expect(out).toContain('<input type="hidden" name="_csrf" value="csrf-token" />');
  });

  it('offers no Re-run to a viewer', async () => {
    const out = await render(jobsTable([failed], 'apps/shop', viewer, session(viewer)));
    expect(out).toContain('cursor moved');
    expect(out).not.toContain('/jobs/retry');
  });

  it('says so when the scope has no jobs', async () => {
    expect(await render(jobsTable([], 'apps/shop', approver, session(approver)))).toBe('<p class="muted">No learning jobs in apps/shop.</p>');
  });
});
