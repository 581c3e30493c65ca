import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SkillStore } from '../../storage';
import type { RunningWorker } from '../../workers/in-process';
import { approvalWorkflowId } from '../../core/workflow-ids';
import { searchAttributes } from '../../core/search-attributes';
import { scopeKey as scopeKeyOf, skillIdForName, type Scope, type SkillSpec } from '../../core';
import { approvalWorkflow } from '../../workflows';
import { tokenSha256, type Role } from '../../console/users';
import { listOpenApprovals } from '../../client/approvals';
import { uniqueName } from './infra';
import { pollUntil } from './worker-process';
import { cookiesOf } from './http';

/**
 * A revision held for a person, as a learning job leaves one: the stored revision in
 * pending_approval (with a locator, as a revision that is not its job's last) and its
 * approval workflow waiting on the real worker.
 */
export async function holdRevision(
  w: Pick<RunningWorker, 'client' | 'taskQueue'>,
  store: SkillStore,
  scope: Scope,
  spec: SkillSpec,
  opts: { parentId?: string } = {},
): Promise<{ revisionId: string; scopeKey: string; skillId: string }> {
  const scopeKey = scopeKeyOf(scope);
  const skillId = skillIdForName(spec.name);
  const revisionId = uniqueName('rev-held');
  const at = new Date().toISOString();
  await store.createRevision({
    id: revisionId,
    skillId,
    scopeKey,
    scope,
    action: opts.parentId ? 'update' : 'create',
    status: 'pending_approval',
    spec,
    ...(opts.parentId ? { parentId: opts.parentId } : {}),
    source: 'reviewer',
    jobId: `console-test/${revisionId}`,
    reason: 'held for the console tests',
    gates: [{ gate: 'spec', ran: true, passed: true, held: false, reasons: [] }],
    human: { held: true, reasons: ['new skills require approval'] },
    createdAt: at,
    updatedAt: at,
  });
  await w.client.workflow.start(approvalWorkflow, {
    taskQueue: w.taskQueue,
    workflowId: approvalWorkflowId(revisionId),
    args: [{ revision: { scopeKey, skillId, revisionId }, source: 'reviewer' }],
    // As the learning job starts it: Pending finds open approvals by these.
    searchAttributes: searchAttributes({ kind: 'approval', scopeKey, skillId, revisionId }),
  });
  // Pending reads visibility, which trails the start (by more than a second on a loaded machine):
  // a caller that lists right away must find the revision there, as a person would a moment later.
  await pollUntil(
    `the approval of ${revisionId} in visibility`,
    async () => (await listOpenApprovals(w.client, { scopeKeys: [scopeKey] })).some((a) => a.revisionId === revisionId),
    30_000,
  );
  return { revisionId, scopeKey, skillId };
}

export interface TestUser {
  name: string;
  role: Role;
  scopes: string[];
  token: string;
}

/** Writes a users file (hashes only) and returns the users with their tokens. */
export function writeUsersFile(users: Omit<TestUser, 'token'>[]): { path: string; users: Record<string, TestUser> } {
  const withTokens = users.map((u) => ({ ...u, token: randomBytes(24).toString('base64url') }));
  const path = join(mkdtempSync(join(tmpdir(), 'console-users-')), 'users.json');
  writeFileSync(path, JSON.stringify(withTokens.map(({ token, ...u }) => ({ ...u, tokenSha256: tokenSha256(token) }))));
  return { path, users: Object.fromEntries(withTokens.map((u) => [u.name, u])) };
}

/** Signs in to the console at `url` with a user's token through the login form; returns the session's cookies. */
export async function signIn(url: string, token: string): Promise<string> {
  const form = await fetch(`${url}/login`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const res = await fetch(`${url}/login`, { method: 'POST', redirect: 'manual', headers: { cookie: cookiesOf(form) }, body: new URLSearchParams({ token, _csrf: csrf }) });
  return cookiesOf(res);
}
