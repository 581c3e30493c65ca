import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  auditEventId,
  decidePublication,
  nextPointer,
  type ActivePointer,
  type AppliedOperation,
  type AuditAction,
  type HumanReport,
  type PointerTarget,
  type PublicationDecision,
  type Revision,
  type RollbackRequest,
  type RevisionStatus,
  SkillSpecSchema,
} from '../core';
import type { PublishableRevision, RevisionRef, RollbackResult } from '../core/governance';
import type { ImportSkillInput, ImportSkillResult } from '../core/workflow-api/import-skill';
import { NON_RETRYABLE } from '../core/failure-types';
import { rejectionNote } from '../core/governance/rejections';
import { withStoreErrors } from './errors';
import { whileHeartbeating } from './heartbeat';
import { recordRejection } from './rejections';
import type { SignalIndex, SignalRejections } from './scope-index-signal';
import type { StartRollout } from './rollout-start';
import { goesThroughCanary, type CanaryPolicy, type RolloutSettings } from '../core/rollout';
import { indexChangeFor, retryOnConflict, type SkillStore, type StoredPointer } from '../storage';

export interface PublishInput {
  revision: RevisionRef;
  /** The stored revision, or what publishing reads of it, when the caller just recorded it (saves a read). */
  known?: PublishableRevision;
  /** The operation: a function of the workflow step performing it (core `operationId`). */
  opId: string;
  actor: string;
  reason: string;
  /** Workflow time, so a retried activity writes the same log entry. */
  at: string;
  auditAction: Extract<AuditAction, 'promote' | 'approve' | 'auto_expire'>;
  /** GEPA submissions: the active revision must still be this one, else stale-parent rejection. */
  requireParentId?: string;
  /**
   * false: the calling workflow does not wait for the scope's index (no IndexApplied ack is
   * asked for; a learning job leaves read-your-writes to whoever waits for it). Default true.
   */
  awaitIndex?: boolean;
}

export interface PublishResult {
  status: RevisionStatus;
  outcome: 'published' | 'stale_parent';
  /** Published as a canary (EVOLUTION_CANARY): this share of sessions loads it; its rollout workflow decides the rest. */
  canary?: { fraction: number; stableRevisionId: string };
  /**
   * The pointer seq announced to the scope's index workflow, when the caller is to wait for
   * it (its IndexApplied ack carries it) or did not ask to wait (`awaitIndex: false`).
   */
  indexSeq?: number;
}

/** Staged rollout: which revisions publish as a canary, how their rollout moves, and how it is started (the worker's client). */
export interface CanaryPublishing {
  policy: CanaryPolicy;
  rollout: RolloutSettings;
  startRollout: StartRollout;
  /** How long a rollout's decisions wait out storage outages (EVOLUTION_STORAGE_OUTAGE_TOLERANCE). */
  storageOutageToleranceMs?: number;
}

/** The rollback workflow's request, with its workflow time and operation id. */
export type RollbackSkillInput = RollbackRequest & { at: string; opId: string };

/** The import workflow's request, with its workflow time and operation id. */
export type ImportSkillActivityInput = ImportSkillInput & { at: string; opId: string };

export interface PointerOperation {
  scopeKey: string;
  skillId: string;
  opId: string;
  at: string;
  actor: string;
  reason: string;
  action: Extract<AuditAction, 'promote' | 'approve' | 'auto_expire' | 'rollback' | 'delete' | 'import' | 'canary_start' | 'canary_step' | 'canary_promote' | 'canary_rollback'>;
  /** What the operation is about (its log entry names `target.revisionId`), and what it writes unless `resolve` says otherwise. */
  target: PointerTarget;
  /**
   * The pointer to write, from the pointer as read now (a canary's step builds on the live
   * canary), or why the operation no longer applies (nothing is logged or written then).
   */
  resolve?: (current: ActivePointer | undefined) => PointerTarget | { refused: string };
  requireParentId?: string;
  /** Runs once the operation is known to apply, before the pointer moves (records the decision on the revision). */
  beforeApply?: () => Promise<void>;
  /**
   * The pointer as the caller has just read it, or 'absent' (none read, or a create that
   * expects none): the first try decides on it instead of reading again. A stale one only
   * loses the conditional PUT's race, and the next try reads.
   */
  firstRead?: StoredPointer | 'absent';
}

/** `pointer` is what this attempt wrote (absent when an earlier attempt applied the operation). */
export type PointerOperationResult =
  | Exclude<PublicationDecision, { kind: 'apply' } | { kind: 'applied' }>
  | { kind: 'applied'; applied: AppliedOperation; pointer?: ActivePointer }
  | { kind: 'refused'; reason: string; pointer?: ActivePointer };

/**
 * The one way a pointer moves (publication, approval, auto-expiry, rollback, delete,
 * import): one conditional PUT of `active.json`, with the operation remembered in the
 * pointer. Before the PUT, the operation's publication-log entry (its audit event, keyed
 * by operation id) is written create-only with the pointer seq it read: a retry finds it
 * and knows exactly whether its first attempt moved the pointer (core decidePublication),
 * so it never writes twice and never moves the pointer back over a newer operation.
 */
export async function movePointer(store: SkillStore, op: PointerOperation): Promise<PointerOperationResult> {
  const logId = auditEventId(op.opId, op.action);
  let baseSeq: number | undefined;
  let logged = false;
  let prepared = false;
  let firstTry = true;
  return retryOnConflict(
    async () => {
      const current = firstTry && op.firstRead !== undefined ? (op.firstRead === 'absent' ? undefined : op.firstRead) : await store.readActive(op.scopeKey, op.skillId);
      firstTry = false;
      let decision = decidePublication({ pointer: current?.pointer, opId: op.opId, baseSeq, requireParentId: op.requireParentId });
      const resolved = decision.kind === 'apply' && op.resolve ? op.resolve(current?.pointer) : op.target;
      if ('refused' in resolved) return { kind: 'refused', reason: resolved.refused, pointer: current?.pointer };
      if (decision.kind === 'apply' && !logged) {
        const { written } = await store.appendAudit({
          id: logId,
          at: op.at,
          action: op.action,
          skillId: op.skillId,
          scopeKey: op.scopeKey,
          revisionId: op.target.revisionId,
          status: 'active',
          actor: op.actor,
          reason: op.reason,
          opId: op.opId,
          baseSeq: current?.pointer.seq ?? 0,
        });
        logged = true;
        if (!written) {
          baseSeq = (await store.readAudit(op.scopeKey, op.skillId, op.at, logId))?.baseSeq;
          decision = decidePublication({ pointer: current?.pointer, opId: op.opId, baseSeq, requireParentId: op.requireParentId });
        }
      }
      if (decision.kind !== 'apply') return decision;
      if (!prepared) {
        await op.beforeApply?.();
        prepared = true;
      }
      const next = nextPointer(current?.pointer, resolved, op);
      await store.writeActive(op.scopeKey, op.skillId, next, current?.etag ?? null);
      return { kind: 'applied', applied: next.recent.at(-1)!, pointer: next };
    },
    { attempts: 40 },
  );
}

export function pointerTargetOf(rev: Pick<Revision, 'id' | 'skillId' | 'action' | 'spec'>): PointerTarget {
  if (rev.action !== 'delete' && !rev.spec) throw ApplicationFailure.nonRetryable(`revision ${rev.id} has no skill spec to publish`, NON_RETRYABLE.store);
  return { skillId: rev.skillId, revisionId: rev.id, managed: true, spec: rev.spec, deleted: rev.action === 'delete' };
}

/** A publication whose pointer has moved (now, or by an earlier attempt), before the scope's index is told. */
export interface PointerPublication {
  /** What publishRevision returns. Its `indexSeq` is here only with `awaitIndex: false` (the seq tellIndex announces); otherwise tellIndex answers it. */
  published: PublishResult;
  /** Tells the scope's index workflow (with an IndexApplied ack asked for unless `awaitIndex: false`); resolves to the publication's `indexSeq`. */
  tellIndex(): Promise<number | undefined>;
}

interface PublisherDeps {
  store: SkillStore;
  signalIndex: SignalIndex;
  canary?: CanaryPublishing;
}

/**
 * Tells the index workflow about `pointer` (or what the pointer is now). With `ack`, returns
 * the seq the calling workflow is to wait for (its IndexApplied ack), or undefined when
 * there is nothing to wait for: no pointer, or the index already includes the change.
 * Without, the change is only signalled and its seq returned.
 */
function indexAnnouncer({ store, signalIndex }: PublisherDeps) {
  return async function announce(scopeKey: string, skillId: string, pointer: ActivePointer | undefined, ack = true): Promise<number | undefined> {
    const now = pointer ?? (await store.readActive(scopeKey, skillId))?.pointer;
    if (!now) return undefined;
    if (!ack) {
      await signalIndex(scopeKey, indexChangeFor(now));
      return now.seq;
    }
    const applied = await signalIndex(scopeKey, { ...indexChangeFor(now), ackTo: Context.current().info.workflowExecution?.workflowId });
    return applied === true ? undefined : now.seq;
  };
}

/**
 * A revision's publication up to the moment the index is to be told (publishRevision, and a
 * learning job's publication, which tells the index while it records its outcome). Runs
 * inside an activity, under the caller's heartbeat and store-error mapping.
 */
export function revisionPublisher(deps: PublisherDeps) {
  const { store, canary } = deps;
  const announce = indexAnnouncer(deps);

  async function audit(rev: Pick<Revision, 'scopeKey' | 'skillId' | 'id'>, opId: string, action: AuditAction, at: string, actor: string, reason: string, status?: RevisionStatus) {
    await store.appendAudit({ id: auditEventId(opId, action), at, action, skillId: rev.skillId, scopeKey: rev.scopeKey, revisionId: rev.id, status, actor, reason, opId });
  }

  async function publishPointer(input: PublishInput): Promise<PointerPublication> {
    const rev: PublishableRevision = input.known && input.known.id === input.revision.revisionId ? input.known : await mustRead(store, input.revision);
    const nothingToTell = async () => undefined;
    const staleEarlier = rev.history.find((h) => h.to === 'rejected' && h.at === input.at && h.reason.startsWith('stale parent'));
    if (staleEarlier) {
      // This operation already found the parent stale; a retry only completes its audit.
      await audit(rev, input.opId, 'stale_parent', input.at, input.actor, staleEarlier.reason, 'rejected');
      return { published: { status: 'rejected', outcome: 'stale_parent' }, tellIndex: nothingToTell };
    }
    if (rev.status === 'rejected') throw ApplicationFailure.nonRetryable(`revision ${rev.id} was rejected and cannot be published`, NON_RETRYABLE.store);
    const human: HumanReport | undefined =
      input.auditAction === 'promote'
        ? undefined
        : { held: true, reasons: rev.human?.reasons ?? [], decision: 'approved', reviewer: input.actor, comment: input.reason, decidedAt: input.at };
    // The decision is stored on the revision (stored status `active` = decided for publication), once per attempt.
    let decisionRecorded = rev.status === 'active' || rev.status === 'archived';
    const recordDecision = async () => {
      if (decisionRecorded) return;
      await store.transitionRevision(input.revision, { to: 'active', reason: input.reason, at: input.at, patch: { ...(human ? { human } : {}), promotedAt: input.at } });
      decisionRecorded = true;
    };
    // Staged rollout: one extra GET, only when a canary policy is set and the revision is an update.
    const livePointer = canary && canary.policy !== 'none' && rev.action === 'update' ? (await store.readActive(rev.scopeKey, rev.skillId))?.pointer : undefined;
    const asCanary = canary !== undefined && livePointer !== undefined && !livePointer.deleted && goesThroughCanary(canary.policy, rev, livePointer.revisionId);
    const fraction = canary?.rollout.steps[0] ?? 0;
    const result = await movePointer(store, {
      scopeKey: rev.scopeKey,
      skillId: rev.skillId,
      opId: input.opId,
      at: input.at,
      actor: input.actor,
      reason: asCanary ? `${input.reason} (canary: ${(fraction * 100).toFixed(1)} % of sessions)` : input.reason,
      action: rev.action === 'delete' ? 'delete' : asCanary ? 'canary_start' : input.auditAction,
      target: pointerTargetOf(rev),
      // The stable revision is whatever is live when the pointer moves (a newer canary supersedes an older one).
      ...(asCanary
        ? {
            resolve: (current: ActivePointer | undefined) =>
              current && !current.deleted
                ? {
                    skillId: rev.skillId,
                    revisionId: current.revisionId,
                    managed: current.managed,
                    spec: current.spec,
                    deleted: false,
                    canary: { revisionId: rev.id, spec: rev.spec!, fraction, startedAt: input.at },
                  }
                : pointerTargetOf(rev),
          }
        : {}),
      requireParentId: input.requireParentId,
      beforeApply: recordDecision,
      ...(rev.action === 'create' && !rev.parentId ? { firstRead: 'absent' as const } : {}),
    });
    if (result.kind === 'stale_parent') {
      const reason = `stale parent: the active revision is ${result.activeRevisionId ?? 'none'}, the submission was based on ${input.requireParentId}`;
      await audit(rev, input.opId, 'stale_parent', input.at, input.actor, reason, 'rejected');
      await store.transitionRevision(input.revision, { to: 'rejected', reason, at: input.at });
      return { published: { status: 'rejected', outcome: 'stale_parent' }, tellIndex: nothingToTell };
    }
    // Applied now or by an earlier attempt: finish what that attempt may not have (all idempotent).
    await recordDecision();
    const now = result.kind === 'applied' ? (result.pointer ?? (await store.readActive(rev.scopeKey, rev.skillId))?.pointer) : undefined;
    const live = now && !now.deleted && now.canary?.revisionId === rev.id ? { canary: now.canary, stableRevisionId: now.revisionId } : undefined;
    const startedCanary = live ? { fraction: live.canary.fraction, stableRevisionId: live.stableRevisionId } : undefined;
    // The canary is on the pointer (now or by an earlier attempt): its rollout runs (a second start is a no-op).
    if (live && canary) {
      await canary.startRollout({
        scopeKey: rev.scopeKey,
        skillId: rev.skillId,
        candidateRevisionId: rev.id,
        stableRevisionId: live.stableRevisionId,
        startedAt: live.canary.startedAt,
        settings: canary.rollout,
        ...(canary.storageOutageToleranceMs !== undefined ? { storageOutageToleranceMs: canary.storageOutageToleranceMs } : {}),
      });
    }
    if (rev.shadowBypassed) await audit(rev, input.opId, 'shadow_bypass', input.at, input.actor, 'published in shadow mode despite gate verdicts', 'active');
    const published: PublishResult = { status: result.kind === 'superseded' ? 'archived' : 'active', outcome: 'published', ...(startedCanary ? { canary: startedCanary } : {}) };
    // The index is told about `now` (superseded: the pointer as it is then).
    if (input.awaitIndex ?? true) return { published, tellIndex: () => announce(rev.scopeKey, rev.skillId, now, true) };
    // Nobody waits for an ack: the seq to announce is known before the index is told.
    const toAnnounce = now ?? (await store.readActive(rev.scopeKey, rev.skillId))?.pointer;
    return { published: { ...published, indexSeq: toAnnounce?.seq }, tellIndex: () => announce(rev.scopeKey, rev.skillId, toAnnounce, false) };
  }

  return { publishPointer, audit, announce };
}

export type RevisionPublisher = ReturnType<typeof revisionPublisher>;

async function mustRead(store: SkillStore, ref: RevisionRef): Promise<Revision> {
  const rev = await store.readRevision(ref.scopeKey, ref.skillId, ref.revisionId);
  if (!rev) throw ApplicationFailure.nonRetryable(`revision ${ref.revisionId} of skill ${ref.skillId} does not exist in ${ref.scopeKey}`, NON_RETRYABLE.store);
  return rev;
}

/**
 * The publisher: the only code that moves pointers (through movePointer). Statuses are
 * derived from the pointer (core revisionStatus), so nothing re-reads or re-writes other
 * revisions; the scope index is materialized by the scope's index workflow,
 * which each operation signals with the pointer it leaves behind.
 */
export function publisherActivities({
  store,
  revisions,
  signalRejections,
}: {
  store: SkillStore;
  /** The worker's revisionPublisher (shared with the learning job's publication). */
  revisions: RevisionPublisher;
  signalRejections: SignalRejections;
}) {
  const { publishPointer, audit, announce } = revisions;

  async function publishRevision(input: PublishInput): Promise<PublishResult> {
    return withStoreErrors(() =>
      whileHeartbeating(async () => {
        const { published, tellIndex } = await publishPointer(input);
        return { ...published, indexSeq: await tellIndex() };
      }),
    );
  }

  async function rejectRevision({
    revision,
    actor,
    reason,
    at,
    opId,
  }: {
    revision: RevisionRef;
    actor: string;
    reason: string;
    at: string;
    opId: string;
  }): Promise<{ status: RevisionStatus }> {
    return withStoreErrors(async () => {
      const rev = await mustRead(store, revision);
      const human: HumanReport = { held: true, reasons: rev.human?.reasons ?? [], decision: 'rejected', reviewer: actor, comment: reason, decidedAt: at };
      const after = await store.transitionRevision(revision, { to: 'rejected', reason, at, patch: { human } });
      await audit(rev, opId, 'reject', at, actor, reason, 'rejected');
      // Learning from decisions: the next review of this skill (and a GEPA reflection on it) sees the change and the comment.
      await recordRejection(store, signalRejections, rev.scopeKey, rejectionNote(rev, { reviewer: actor, comment: reason, at }));
      return { status: after.status };
    });
  }

  async function rollbackSkill(input: RollbackSkillInput): Promise<RollbackResult & { indexSeq?: number }> {
    return withStoreErrors(() =>
      whileHeartbeating(async () => {
        const fail = (msg: string) => ApplicationFailure.nonRetryable(msg, NON_RETRYABLE.rollback);
        const current = await store.readActive(input.scopeKey, input.skillId);
        const recent = current?.pointer.recent ?? [];
        const doneAt = recent.findIndex((o) => o.opId === input.opId);
        if (doneAt >= 0) {
          // A retry: the first attempt moved the pointer; report what it did.
          const indexSeq = await announce(input.scopeKey, input.skillId, current!.pointer);
          return { skillId: input.skillId, restoredRevisionId: recent[doneAt]!.revisionId, archivedRevisionId: recent[doneAt - 1]?.revisionId, indexSeq };
        }
        const revisions = await store.listRevisions(input.scopeKey, input.skillId, { pointer: current?.pointer }); // statuses derived from the pointer just read
        if (revisions.length === 0) throw fail(`skill ${input.skillId} has no revisions in ${input.scopeKey}`);
        let target: Revision | undefined;
        if (input.targetRevisionId) {
          target = revisions.find((r) => r.id === input.targetRevisionId);
          if (!target) throw fail(`revision ${input.targetRevisionId} is not a revision of skill ${input.skillId}`);
          if (target.status !== 'archived') throw fail(`revision ${target.id} is ${target.status}, not archived: only archived revisions can be rolled back to`);
        } else {
          target = revisions.filter((r) => r.status === 'archived').at(-1);
          if (!target) throw fail(`no archived revision of skill ${input.skillId} to roll back to`);
        }
        const previous = current?.pointer.revisionId;
        const reason = input.comment || `rollback from ${previous ?? 'nothing'} to ${target.id}`;
        const result = await movePointer(store, {
          scopeKey: input.scopeKey,
          skillId: input.skillId,
          opId: input.opId,
          at: input.at,
          actor: input.reviewer,
          reason,
          action: 'rollback',
          target: pointerTargetOf(target),
          firstRead: current ?? 'absent',
        });
        const indexSeq = await announce(input.scopeKey, input.skillId, result.kind === 'applied' ? result.pointer : undefined);
        if (result.kind === 'applied' && result.pointer) {
          const mine = result.pointer.recent;
          return {
            skillId: input.skillId,
            restoredRevisionId: target.id,
            archivedRevisionId: mine.at(-2)?.revisionId !== target.id ? mine.at(-2)?.revisionId : undefined,
            indexSeq,
          };
        }
        return { skillId: input.skillId, restoredRevisionId: target.id, archivedRevisionId: previous !== target.id ? previous : undefined, indexSeq };
      }),
    );
  }

  /**
   * Publishes a hand-written skill as UNMANAGED: agents load it and the reviewer sees it (for
   * dedup), but evolution never updates or deletes it. A managed skill of the same id is
   * refused: an import would take it out of governance.
   */
  async function importSkill(input: ImportSkillActivityInput): Promise<ImportSkillResult & { indexSeq?: number }> {
    return withStoreErrors(() =>
      whileHeartbeating(async () => {
        const fail = (msg: string) => ApplicationFailure.nonRetryable(msg, NON_RETRYABLE.import);
        const spec = SkillSpecSchema.safeParse(input.spec);
        if (!spec.success) throw fail(`not a valid skill spec: ${spec.error.issues.map((i) => `${i.path.join('.') || 'spec'}: ${i.message}`).join('; ')}`);
        const { scopeKey, skillId, revisionId } = input;
        const current = await store.readActive(scopeKey, skillId);
        if (current?.pointer.managed) throw fail(`skill ${skillId} is managed by evolution in ${scopeKey}; an import would take it out of governance`);
        const result = await movePointer(store, {
          scopeKey,
          skillId,
          opId: input.opId,
          at: input.at,
          actor: 'import',
          reason: `imported ${spec.data.name}`,
          action: 'import',
          target: { skillId, revisionId, managed: false, spec: spec.data, deleted: false },
        });
        const indexSeq = await announce(scopeKey, skillId, result.kind === 'applied' ? result.pointer : undefined);
        return { scopeKey, skillId, revisionId, name: spec.data.name, auditId: auditEventId(input.opId, 'import'), applied: result.kind === 'applied', indexSeq };
      }),
    );
  }

  return { publishRevision, rejectRevision, rollbackSkill, importSkill };
}
