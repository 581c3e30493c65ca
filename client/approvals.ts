import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { redactSecrets, skillDiff, type Revision, type RevisionStatus, isLivePointer } from '../core';
import { approvalWorkflowId } from '../core/workflow-ids';
import { openApprovalsQuery, SEARCH_ATTRIBUTE_NAMES, type ApprovalScopeFilter } from '../core/search-attributes';

export { openApprovalsQuery, type ApprovalScopeFilter };
import { mapLimit, type SkillStore } from '../storage';
import { approvalStatusQuery, decideUpdate, type ApprovalResult, type ApprovalWorkflow } from '../core/workflow-api';
import { NotFoundError, StateError } from '../core/errors';

export interface RevisionView {
  revision: Revision;
  activeRevisionId?: string;
  /** Unified diff of SKILL.md: active (before) → this revision (after). */
  diff: string;
}

async function mustFind(store: SkillStore, revisionId: string): Promise<Revision> {
  const rev = await store.findRevision(revisionId);
  if (!rev) throw new NotFoundError(`no revision ${revisionId}`);
  return rev;
}

/** An approval workflow still waiting, as visibility knows it (its search attributes). */
export interface OpenApproval {
  revisionId: string;
  scopeKey: string;
  skillId: string;
  startedAt: string;
}

/** The open approval workflows of some scopes (a visibility query: no storage reads), oldest first. */
export async function listOpenApprovals(client: Client, filter: ApprovalScopeFilter): Promise<OpenApproval[]> {
  const query = openApprovalsQuery(filter);
  if (!query) return [];
  const open: OpenApproval[] = [];
  for await (const wf of client.workflow.list({ query, pageSize: 1000 })) {
    const attr = (name: string) => {
      const v = wf.searchAttributes?.[name];
      return Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
    };
    const revisionId = attr(SEARCH_ATTRIBUTE_NAMES.revisionId);
    const scopeKey = attr(SEARCH_ATTRIBUTE_NAMES.scopeKey);
    const skillId = attr(SEARCH_ATTRIBUTE_NAMES.skillId);
    if (revisionId && scopeKey && skillId) open.push({ revisionId, scopeKey, skillId, startedAt: wf.startTime.toISOString() });
  }
  return open.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.revisionId.localeCompare(b.revisionId));
}

/**
 * The revisions of some open approvals, one storage read each (concurrently, in their
 * order); a revision decided a moment ago whose workflow is still finishing is left out.
 */
export async function openApprovalRevisions(store: SkillStore, open: readonly OpenApproval[]): Promise<Revision[]> {
  const revisions = await mapLimit(open, 8, (a) => store.readRevision(a.scopeKey, a.skillId, a.revisionId));
  return revisions.filter((r): r is Revision => r?.status === 'pending_approval');
}

/**
 * Revisions waiting for a person in one scope, oldest first: the open approval workflows
 * (a visibility query) and one read per revision, as the console's Pending, so the cost
 * follows what is pending, not the scope's history.
 */
export async function listPending(deps: { client: Client; store: SkillStore }, scopeKey: string): Promise<Revision[]> {
  return openApprovalRevisions(deps.store, await listOpenApprovals(deps.client, { scopeKeys: [scopeKey] }));
}

/**
 * Every revision of a scope in some statuses, by reading all of its revisions: the cost
 * grows with the scope's history. For revisions held for evaluation (pending_eval), which
 * no workflow waits on, and audits; what a person acts on is `listPending`.
 */
export async function scanRevisionsByStatus(store: SkillStore, scopeKey: string, statuses: RevisionStatus[]): Promise<Revision[]> {
  return store.listRevisionsByStatus(scopeKey, statuses);
}

export async function showRevision(store: SkillStore, revisionId: string): Promise<RevisionView> {
  const revision = await mustFind(store, revisionId);
  const active = await store.readActive(revision.scopeKey, revision.skillId);
  const before = isLivePointer(active?.pointer) ? active!.pointer.spec : undefined;
  const after = revision.action === 'delete' ? undefined : revision.spec;
  return { revision, activeRevisionId: active?.pointer.revisionId, diff: skillDiff(before, after) };
}

/**
 * Approves or rejects a held revision through its approval workflow (an update, so the
 * caller hears about an invalid or second decision), then waits for publication.
 */
export async function decideRevision(
  deps: { client: Client; store: SkillStore },
  revisionId: string,
  decision: { decision: 'approve' | 'reject'; reviewer: string; comment?: string },
): Promise<ApprovalResult> {
  const rev = await mustFind(deps.store, revisionId);
  if (rev.status !== 'pending_approval') {
    const who = rev.human?.reviewer ? ` by ${rev.human.reviewer}` : '';
    throw new StateError(`revision ${revisionId} is not waiting for approval: it is ${rev.status}${who}`);
  }
  const handle = deps.client.workflow.getHandle<ApprovalWorkflow>(approvalWorkflowId(revisionId));
  try {
    // The comment goes into workflow history and the audit trail: credentials never do.
    await handle.executeUpdate(decideUpdate, { args: [{ ...decision, ...(decision.comment !== undefined ? { comment: redactSecrets(decision.comment) } : {}) }] });
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) throw new StateError(`revision ${revisionId} has no open approval (it was decided meanwhile)`);
    const cause = (e as { cause?: Error }).cause;
    throw new StateError(cause?.message ?? (e as Error).message, { cause: e });
  }
  return handle.result();
}

/** Every revision of one skill with its status, oldest first (the console's timeline reads statuses only here). */
export async function listSkillRevisions(store: SkillStore, scopeKey: string, skillId: string): Promise<Revision[]> {
  return store.listRevisions(scopeKey, skillId);
}

/**
 * When a held revision's approval auto-expires (undefined: it waits for a person forever,
 * is no longer open, or no worker answered within `waitMs`: a query needs a worker).
 */
export async function approvalDeadline(client: Client, revisionId: string, waitMs = 2_000): Promise<string | undefined> {
  return (await approvalExpiry(client, revisionId, waitMs))?.deadline;
}

/**
 * The deadline and what it does (promote or reject; approvals started before the setting
 * report none and promote), or undefined as approvalDeadline.
 */
export async function approvalExpiry(client: Client, revisionId: string, waitMs = 2_000): Promise<{ deadline: string; action: 'promote' | 'reject' } | undefined> {
  try {
    const handle = client.workflow.getHandle<ApprovalWorkflow>(approvalWorkflowId(revisionId));
    const status = await client.withDeadline(Date.now() + waitMs, () => handle.query(approvalStatusQuery));
    return status.deadline ? { deadline: status.deadline, action: status.expiryAction ?? 'promote' } : undefined;
  } catch {
    return undefined;
  }
}
