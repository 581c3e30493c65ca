import { auditEventId, cohortCounts, type ActivePointer, type CohortCounts, type PointerTarget } from '../core';
import { rejectionNote } from '../core/governance/rejections';
import { withStoreErrors } from './errors';
import { whileHeartbeating } from './heartbeat';
import { movePointer } from './publisher';
import { recordRejection } from './rejections';
import type { SignalIndex, SignalRejections } from './scope-index-signal';
import { indexChangeFor, type SkillStore } from '../storage';

export interface CanaryRef {
  scopeKey: string;
  skillId: string;
  candidateRevisionId: string;
}

/** What one look at a canary reads: its cohorts since it began (zero until the usage workflow has counted a session). */
export interface CanaryCohorts {
  candidate: CohortCounts;
  stable: CohortCounts;
}

export type RolloutActionKind = 'step' | 'promote' | 'rollback' | 'hold';

export interface RolloutActionInput extends CanaryRef {
  kind: RolloutActionKind;
  /** A step: the candidate cohort's new share. */
  fraction?: number;
  /** `rollout` for the workflow's own decisions, else the approver. */
  actor: string;
  reason: string;
  /** Workflow time and the step's operation id: a retry writes the same log entry and moves the pointer once. */
  at: string;
  opId: string;
}

export interface RolloutActionResult {
  kind: RolloutActionKind;
  /** refused: the pointer no longer carries this canary (another operation ended it); nothing was written. */
  outcome: 'applied' | 'refused';
  reason?: string;
}

const AUDIT_ACTION = { step: 'canary_step', promote: 'canary_promote', rollback: 'canary_rollback', hold: 'canary_hold' } as const;

/**
 * The pointer a rollout action writes over `current`, or why it no longer applies. Every
 * action builds on the live canary of this candidate: a step changes its fraction, a
 * promotion makes the candidate the pointer's revision, a rollback keeps the stable one;
 * the last two write no canary, which ends it.
 */
export function rolloutTarget(
  current: ActivePointer | undefined,
  input: Pick<RolloutActionInput, 'candidateRevisionId' | 'kind' | 'fraction'>,
): PointerTarget | { refused: string } {
  if (!current || current.deleted) return { refused: `the skill is not published any more: its canary ${input.candidateRevisionId} ended` };
  if (current.canary?.revisionId !== input.candidateRevisionId)
    return {
      refused: `the pointer no longer carries canary ${input.candidateRevisionId} (it names ${current.canary ? `canary ${current.canary.revisionId} over ` : ''}${current.revisionId})`,
    };
  const stable = { skillId: current.skillId, revisionId: current.revisionId, managed: current.managed, spec: current.spec, deleted: false } as const;
  switch (input.kind) {
    case 'step':
      return { ...stable, canary: { ...current.canary, fraction: input.fraction! } };
    case 'promote':
      return { ...stable, revisionId: current.canary.revisionId, spec: current.canary.spec };
    default:
      return stable;
  }
}

/**
 * The rollout workflow's activities: one S3 GET per look (the scope's usage counters, where
 * the scope usage workflow keeps each canary's cohort tallies), and its decisions as pointer
 * operations through the one pointer-move path (movePointer), each audited.
 */
export function rolloutActivities({ store, signalIndex, signalRejections }: { store: SkillStore; signalIndex: SignalIndex; signalRejections: SignalRejections }) {
  async function readCanaryCohorts({ scopeKey, skillId, candidateRevisionId }: CanaryRef): Promise<CanaryCohorts> {
    return withStoreErrors(async () => {
      const usage = await store.readUsage(scopeKey);
      const tally = usage?.summary.skills.find((s) => s.skillId === skillId && s.scopeKey === scopeKey)?.canary;
      if (!tally || tally.candidateRevisionId !== candidateRevisionId) return { candidate: cohortCounts(undefined), stable: cohortCounts(undefined) };
      return { candidate: cohortCounts(tally.candidate), stable: cohortCounts(tally.stable) };
    });
  }

  async function applyRolloutDecision(input: RolloutActionInput): Promise<RolloutActionResult> {
    return withStoreErrors(() =>
      whileHeartbeating(async () => {
        const { scopeKey, skillId, candidateRevisionId, kind, actor, reason, at, opId } = input;
        if (kind === 'hold') {
          // Nothing moves: the canary stays as it is until an approver decides.
          await store.appendAudit({
            id: auditEventId(opId, AUDIT_ACTION.hold),
            at,
            action: AUDIT_ACTION.hold,
            skillId,
            scopeKey,
            revisionId: candidateRevisionId,
            status: 'active',
            actor,
            reason,
            opId,
          });
          return { kind, outcome: 'applied' };
        }
        const result = await movePointer(store, {
          scopeKey,
          skillId,
          opId,
          at,
          actor,
          reason,
          action: AUDIT_ACTION[kind],
          target: { skillId, revisionId: candidateRevisionId, managed: true, deleted: false },
          resolve: (current) => rolloutTarget(current, input),
        });
        if (result.kind === 'refused') return { kind, outcome: 'refused', reason: result.reason };
        if (result.kind === 'applied' && result.pointer) await signalIndex(scopeKey, indexChangeFor(result.pointer));
        else {
          const now = await store.readActive(scopeKey, skillId);
          if (now) await signalIndex(scopeKey, indexChangeFor(now.pointer));
        }
        if (kind === 'rollback') {
          // Learning from decisions: the next review of this skill sees that this change was taken back, and why.
          const rev = await store.readRevision(scopeKey, skillId, candidateRevisionId);
          if (rev) await recordRejection(store, signalRejections, scopeKey, rejectionNote(rev, { reviewer: actor, comment: `rolled back from a canary: ${reason}`, at }));
        }
        return { kind, outcome: 'applied' };
      }),
    );
  }

  return { readCanaryCohorts, applyRolloutDecision };
}
