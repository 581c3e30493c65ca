/**
 * What the console shows, per signed-in user: every read goes through the client API
 * (approvals, rollback, optimization, metrics) and is cut to the user's scopes. A thing
 * outside them is "not found", so scope names do not leak.
 */
import type { Client } from '@temporalio/client';
import type { AuditEvent, EvolutionConfig, IterationLogEntry, Revision } from '../core';
import { scopeKey as scopeKeyOf, ScopeSchema } from '../core';
import { mapLimit, type SkillStore } from '../storage';
import { experimentReader, type EvaluationRecord, type ExperimentRecord } from '../storage/experiment-records';
import { curationLines } from '../core/curation/note';
import {
  approvalExpiry,
  decideRevision,
  listOpenApprovals,
  listSkillRevisions,
  showRevision,
  type ApprovalScopeFilter,
  type OpenApproval,
  type RevisionView,
} from '../client/approvals';
import type { SessionAuditEvent } from '../core/governance';
import { NotFoundError } from '../core/errors';
import { governanceMetricsOf, staleEvidence, type GovernanceMetrics } from '../client/metrics';
import { certificationCheck } from '../client/recertification';
import type { CertificationCheck } from '../core/gepa/recertification';
import { getExperiment, readExperimentRecords, type ExperimentView } from '../client/optimization';
import { rollbackSkill } from '../client/rollback';
import { abortRollout, promoteRollout, rolloutStatus, type RolloutStatus } from '../client/rollout';
import { ForbiddenError } from './errors';
import { canAct, canSee, type ConsoleUser } from './users';
import { scopeUsage } from '../client/usage';
import type { UsageReport } from '../core/usage';

export interface ConsoleDeps {
  client: Client;
  store: SkillStore;
  config: EvolutionConfig;
}

export interface PendingItem {
  revisionId: string;
  scopeKey: string;
  skillId: string;
  name: string;
  action: Revision['action'];
  source: Revision['source'];
  createdAt: string;
  expiresAt?: string;
  /** What the deadline does: publish (promote) or reject. */
  expiryAction?: 'promote' | 'reject';
  /** Why it waits for a person: the human gate's reasons (policy, risk tier). */
  heldBecause: string[];
  /** The risk tier (absent on revisions written before risk tiers). */
  risk?: 'low' | 'high';
}

const READS = 8;

/**
 * Scope keys stored in the bucket that the user may see. Literal patterns need no
 * listing; a wildcard lists only the levels of the scope tree it can match
 * (`users/shop/*` lists `scopes/users/shop/` and nothing else).
 */
export async function visibleScopes(store: SkillStore, user: ConsoleUser): Promise<string[]> {
  const literal = user.scopes.filter((p) => !p.endsWith('*'));
  const wildcards = user.scopes.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  const isLeaf = (segs: string[]) => (segs.length === 1 && segs[0] === 'global') || (segs[0] === 'apps' && segs.length === 2) || (segs[0] === 'users' && segs.length === 3);
  const mayHoldMatches = (key: string) => wildcards.some((q) => q.startsWith(`${key}/`) || `${key}/`.startsWith(q));
  async function walk(segs: string[]): Promise<string[]> {
    const key = segs.join('/');
    if (isLeaf(segs)) return canSee(user, key) ? [key] : [];
    if (segs.length > 0 && !mayHoldMatches(key)) return [];
    let children = await store.objects.listChildren(segs.length ? `scopes/${key}/` : 'scopes/');
    if (segs.length === 0) children = children.filter((c) => c === 'global' || c === 'apps' || c === 'users');
    return (await mapLimit(children, READS, (c) => walk([...segs, c]))).flat();
  }
  const listed = wildcards.length ? await walk([]) : [];
  return [...new Set([...literal, ...listed])].sort();
}

function mustSee(user: ConsoleUser, scopeKey: string, what: string): void {
  if (!canSee(user, scopeKey)) throw new NotFoundError(`no ${what}`);
}

function mustAct(user: ConsoleUser, what: string): void {
  if (!canAct(user)) throw new ForbiddenError(`${user.name} is a ${user.role}: viewers cannot ${what}`);
}

/** The user's scope patterns as a filter of approval workflows (visibility); canSee still checks each answer. */
function approvalFilter(user: ConsoleUser): ApprovalScopeFilter {
  return {
    all: user.scopes.includes('*'),
    scopeKeys: user.scopes.filter((p) => !p.includes('*')),
    scopePrefixes: user.scopes.filter((p) => p.endsWith('/*')).map((p) => p.slice(0, -1)),
  };
}

/**
 * The approval workflows open in the user's scopes: one visibility query, whatever the
 * scopes' history. What the Pending page polls (its version) is made of these alone.
 */
export async function openApprovalsFor(deps: ConsoleDeps, user: ConsoleUser): Promise<OpenApproval[]> {
  return (await listOpenApprovals(deps.client, approvalFilter(user))).filter((a) => canSee(user, a.scopeKey));
}

/**
 * Revisions waiting for a person in the user's scopes, oldest first, with their auto-expiry
 * (one workflow query each; `deadlines: false` skips them). The set comes from the open
 * approval workflows (a visibility query), each revision from one storage read: the cost
 * follows what is pending, not the scopes' history. A revision decided a moment ago whose
 * workflow is still finishing is left out.
 */
export async function pendingFor(deps: ConsoleDeps, user: ConsoleUser, opts: { deadlines?: boolean; open?: OpenApproval[] } = {}): Promise<PendingItem[]> {
  const open = opts.open ?? (await openApprovalsFor(deps, user));
  const rows = await mapLimit(open, READS, async (a): Promise<PendingItem | undefined> => {
    const r = await deps.store.readRevision(a.scopeKey, a.skillId, a.revisionId);
    if (!r || r.status !== 'pending_approval') return undefined;
    const expiry = opts.deadlines === false ? undefined : await approvalExpiry(deps.client, r.id);
    return {
      revisionId: r.id,
      scopeKey: r.scopeKey,
      skillId: r.skillId,
      name: r.spec?.name ?? r.skillId,
      action: r.action,
      source: r.source,
      createdAt: r.createdAt,
      heldBecause: [...(r.human?.reasons ?? []), ...curationLines(r.curation)],
      ...(r.risk ? { risk: r.risk.tier } : {}),
      ...(expiry ? { expiresAt: expiry.deadline, expiryAction: expiry.action } : {}),
    };
  });
  return rows.filter((r): r is PendingItem => r !== undefined).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.revisionId.localeCompare(b.revisionId));
}

export interface RevisionPage extends RevisionView {
  audit: AuditEvent[];
}

export async function revisionFor(deps: ConsoleDeps, user: ConsoleUser, revisionId: string): Promise<RevisionPage> {
  let view: RevisionView;
  try {
    view = await showRevision(deps.store, revisionId);
  } catch (e) {
    if (e instanceof NotFoundError) throw new NotFoundError(`no revision ${revisionId}`);
    throw e;
  }
  mustSee(user, view.revision.scopeKey, `revision ${revisionId}`);
  const audit = await deps.store.listAudit(view.revision.scopeKey, view.revision.skillId);
  return { ...view, audit };
}

/** Approve or reject under the signed-in user's name (never a name from the request). */
export async function decideFor(deps: ConsoleDeps, user: ConsoleUser, revisionId: string, input: { decision: 'approve' | 'reject'; comment?: string }) {
  await revisionFor(deps, user, revisionId);
  mustAct(user, 'approve or reject');
  return decideRevision(deps, revisionId, { decision: input.decision, reviewer: user.name, ...(input.comment ? { comment: input.comment } : {}) });
}

/** A canary's rollout, for a user who can see its revision's scope. */
export async function rolloutFor(deps: ConsoleDeps, user: ConsoleUser, revisionId: string): Promise<RolloutStatus> {
  await revisionFor(deps, user, revisionId);
  return rolloutStatus(deps.client, revisionId);
}

/** An approver promotes or aborts a canary under the signed-in user's name (never a name from the request). */
export async function rolloutActionFor(deps: ConsoleDeps, user: ConsoleUser, revisionId: string, input: { action: 'promote' | 'abort'; comment?: string }): Promise<RolloutStatus> {
  await revisionFor(deps, user, revisionId);
  mustAct(user, 'promote or abort a rollout');
  const decide = input.action === 'promote' ? promoteRollout : abortRollout;
  return decide(deps.client, revisionId, { reviewer: user.name, ...(input.comment ? { comment: input.comment } : {}) });
}

export interface PublishedSkill {
  skillId: string;
  name: string;
  description: string;
  revisionId: string;
}

export async function skillsFor(deps: ConsoleDeps, user: ConsoleUser, scopeKey: string): Promise<PublishedSkill[]> {
  mustSee(user, scopeKey, `scope ${scopeKey}`);
  const index = await deps.store.readScopeIndex(scopeKey);
  return index && !index.notModified ? index.index.skills : [];
}

/** A scope's usage report (core/usage), for a user who can see the scope. */
export async function usageFor(deps: ConsoleDeps, user: ConsoleUser, scopeKey: string, skill?: string): Promise<UsageReport> {
  mustSee(user, scopeKey, `scope ${scopeKey}`);
  return scopeUsage(deps.store, scopeKey, { ...(skill ? { skill } : {}) });
}

export interface SkillTimeline {
  scopeKey: string;
  skillId: string;
  activeRevisionId?: string;
  revisions: Revision[];
  audit: AuditEvent[];
  /** Re-certification's latest check of the active revision (optimized revisions whose evaluator changed). */
  certification?: CertificationCheck;
}

export async function skillTimelineFor(deps: ConsoleDeps, user: ConsoleUser, scopeKey: string, skillId: string): Promise<SkillTimeline> {
  mustSee(user, scopeKey, `skill ${skillId}`);
  const [revisions, active, audit] = await Promise.all([
    listSkillRevisions(deps.store, scopeKey, skillId),
    deps.store.readActive(scopeKey, skillId),
    deps.store.listAudit(scopeKey, skillId),
  ]);
  if (revisions.length === 0 && !active) throw new NotFoundError(`no skill ${skillId}`);
  const activeRevisionId = active && !active.pointer.deleted ? active.pointer.revisionId : undefined;
  const optimized = activeRevisionId !== undefined && revisions.some((r) => r.id === activeRevisionId && r.evidence?.certifiedWith);
  const certification = optimized ? await certificationCheck(deps.store, scopeKey, activeRevisionId) : undefined;
  return { scopeKey, skillId, activeRevisionId, revisions, audit, ...(certification ? { certification } : {}) };
}

export async function rollbackFor(deps: ConsoleDeps, user: ConsoleUser, input: { scopeKey: string; skillId: string; targetRevisionId?: string; comment?: string }) {
  await skillTimelineFor(deps, user, input.scopeKey, input.skillId);
  mustAct(user, 'roll back');
  return rollbackSkill(deps, { ...input, reviewer: user.name });
}

export interface ExperimentSummary {
  experimentId: string;
  scopeKey: string;
  skillId?: string;
  startedAt: string;
  dataset: string;
  status: string;
  submittedRevisionId?: string;
}

function experimentScope(record: ExperimentRecord): string | undefined {
  const scope = ScopeSchema.safeParse((record as { request?: { scope?: unknown } }).request?.scope);
  return scope.success ? scopeKeyOf(scope.data) : undefined;
}

/** Experiments whose scope the user may see, newest first. */
export async function experimentsFor(deps: ConsoleDeps, user: ConsoleUser): Promise<ExperimentSummary[]> {
  const reader = experimentReader(deps.store);
  const ids = await deps.store.objects.listChildren('experiments/');
  const rows = await mapLimit(ids, READS, async (id): Promise<ExperimentSummary | undefined> => {
    const record = await reader.experiment(id);
    const scopeKey = record && experimentScope(record);
    if (!record || !scopeKey || !canSee(user, scopeKey)) return undefined;
    const report = await reader.result(id);
    const request = (record as { request?: { skillId?: string } }).request;
    return {
      experimentId: record.experimentId,
      scopeKey,
      ...(request?.skillId ? { skillId: request.skillId } : {}),
      startedAt: record.startedAt,
      dataset: `${record.dataset.id}@${record.dataset.version}`,
      status: report?.status ?? 'running',
      ...((report?.submittedRevisionId ?? report?.submission?.revisionId) ? { submittedRevisionId: report.submittedRevisionId ?? report.submission?.revisionId } : {}),
    };
  });
  return rows.filter((r): r is ExperimentSummary => r !== undefined).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

export interface HoldoutCase {
  caseId: string;
  critical: boolean;
  seed?: number;
  winner?: number;
}

export interface ExperimentPage {
  summary: ExperimentSummary;
  view: ExperimentView;
  seedValidationMean?: number;
  log: IterationLogEntry[];
  holdout: HoldoutCase[];
}

export async function experimentFor(deps: ConsoleDeps, user: ConsoleUser, experimentId: string): Promise<ExperimentPage> {
  const record = await experimentReader(deps.store)
    .experiment(experimentId)
    .catch(() => undefined);
  const scopeKey = record && experimentScope(record);
  if (!record || !scopeKey || !canSee(user, scopeKey)) throw new NotFoundError(`no experiment ${experimentId}`);
  const [view, records] = await Promise.all([getExperiment(deps, experimentId), readExperimentRecords(deps.store, experimentId)]);
  const byId = (id: string): EvaluationRecord | undefined => records.evaluations.find((e) => e.recordId === id);
  const seedHoldout = byId('e-holdout-seed');
  const winnerHoldout = byId('e-holdout-winner');
  const critical = new Set((record.dataset as { criticalHoldoutCases?: string[] }).criticalHoldoutCases ?? []);
  const caseIds = [...new Set([...(seedHoldout?.caseIds ?? []), ...(winnerHoldout?.caseIds ?? [])])];
  const score = (r: EvaluationRecord | undefined, id: string) => r?.evaluations.find((e) => e.caseId === id)?.score;
  const request = (record as { request?: { skillId?: string } }).request;
  return {
    summary: {
      experimentId,
      scopeKey,
      ...(request?.skillId ? { skillId: request.skillId } : {}),
      startedAt: record.startedAt,
      dataset: `${record.dataset.id}@${record.dataset.version}`,
      status: view.status,
      ...(view.report?.submission?.revisionId ? { submittedRevisionId: view.report.submission.revisionId } : {}),
    },
    view,
    seedValidationMean: byId('e-seed-validation')?.summary.mean ?? view.report?.seedValidationMean,
    log: records.log,
    holdout: caseIds.map((caseId) => ({ caseId, critical: critical.has(caseId), seed: score(seedHoldout, caseId), winner: score(winnerHoldout, caseId) })),
  };
}

export interface ActivityFilter {
  scopeKey?: string;
  skillId?: string;
  action?: string;
  actor?: string;
  limit?: number;
}

/**
 * The recent audit entries across the user's scopes (newest first, filtered), the recent
 * quarantined deltas and each scope's governance counters: per scope one read of the summary
 * its usage workflow keeps (its last MAX_RECENT_EVENTS entries and its counters), so a load
 * costs the same whatever the scopes' history. Older entries: the skill's page (its full log).
 */
export async function activityFor(
  deps: ConsoleDeps,
  user: ConsoleUser,
  filter: ActivityFilter = {},
): Promise<{ events: AuditEvent[]; quarantines: SessionAuditEvent[]; metrics: Record<string, GovernanceMetrics> }> {
  let scopes = await visibleScopes(deps.store, user);
  if (filter.scopeKey) scopes = scopes.filter((s) => s === filter.scopeKey);
  const perScope = await mapLimit(scopes, READS, async (scopeKey) => {
    const [usage, stale] = await Promise.all([deps.store.readUsage(scopeKey), staleEvidence(deps.store, scopeKey)]);
    const summary = usage?.summary;
    return { scopeKey, events: summary?.recentEvents ?? [], quarantines: summary?.recentQuarantines ?? [], metrics: governanceMetricsOf(summary, stale) };
  });
  const events = perScope
    .flatMap((s) => s.events)
    .filter((e) => (!filter.skillId || e.skillId === filter.skillId) && (!filter.action || e.action === filter.action) && (!filter.actor || e.actor === filter.actor))
    .sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id))
    .slice(0, filter.limit ?? 500);
  // Session-level entries (quarantined deltas) name no skill: only the scope filter applies.
  const quarantines = perScope.flatMap((s) => s.quarantines).sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id));
  return { events, quarantines, metrics: Object.fromEntries(perScope.map((s) => [s.scopeKey, s.metrics])) };
}
