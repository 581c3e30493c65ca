import { ApplicationFailure } from '@temporalio/activity';
import { isLivePointer, revisionIdFor, scopeKey as scopeKeyOf, type Evidence, type Outcome, type RevisionStatus, type Scope, type SkillSpec } from '../../core';
import { buildGovernedRevision, type GovernanceSettings } from '../../core/governance';
import { withStoreErrors } from '../errors';
import { existingSkillsOf } from '../existing-skills';
import { recordActivities as revisionRecorder } from '../record';
import type { SkillStore } from '../../storage';
import { submissionJobId } from '../../core/gepa/ids';
import { NON_RETRYABLE } from '../../core/failure-types';

export interface SubmitCandidateInput {
  experimentId: string;
  scope: Scope;
  skillId: string;
  /** The active revision the experiment started from. */
  parentRevisionId: string;
  spec: SkillSpec;
  evidence: Evidence;
  governance: GovernanceSettings;
  /** Workflow time: the revision's createdAt. */
  at: string;
}

export interface SubmitCandidateResult {
  status: 'submitted' | 'rejected' | 'stale_parent';
  reason: string;
  scopeKey: string;
  revisionId: string;
  /** Present when a revision was stored. */
  revisionStatus?: RevisionStatus;
  /** The stored revision's risk tier (an approval timeout never publishes a high-risk one). */
  riskTier?: 'low' | 'high';
}

/** The outcome the Effectiveness gate reads: the winner's paired Holdout evidence (reference: outcomeFromEvidence). */
export function outcomeFromEvidence(evidence: Evidence): Outcome | undefined {
  if (evidence.caseCount <= 0) return undefined;
  return {
    status: 'success',
    score: evidence.candidateHoldoutScore,
    notes: `paired holdout delta ${evidence.delta.toFixed(4)} across ${evidence.caseCount} cases (experiment ${evidence.experimentId})`,
    evaluator: 'gepa',
  };
}

/**
 * Governed submission of a promotion-eligible winner. Only an update of an existing,
 * managed skill whose active revision is still the experiment's parent; the automatic
 * gates run again with an outcome derived from the evidence, and a revision that passes
 * them is stored pending_approval (gepa revisions always wait for a person). Nothing
 * here touches the active pointer. Idempotent: the revision id is a function of the
 * experiment, and a retry finds the revision it already stored.
 */
export function submissionActivities({ store }: { store: SkillStore }) {
  const recorder = revisionRecorder({ store });
  return {
    async submitExperimentCandidate(input: SubmitCandidateInput): Promise<SubmitCandidateResult> {
      let scopeKey: string;
      try {
        scopeKey = scopeKeyOf(input.scope);
      } catch (e) {
        throw ApplicationFailure.nonRetryable(`invalid scope: ${(e as Error).message}`, NON_RETRYABLE.experimentRequest);
      }
      const revisionId = revisionIdFor(submissionJobId(input.experimentId), 0);
      return withStoreErrors(async () => {
        const stored = await store.readRevision(scopeKey, input.skillId, revisionId);
        // A retry after the revision was stored: make sure its audit trail was written too (idempotent).
        if (stored) await recorder.recordRevision({ revision: stored });
        if (stored)
          return {
            status: stored.status === 'rejected' ? 'rejected' : 'submitted',
            reason: `revision ${revisionId} is ${stored.status}`,
            scopeKey,
            revisionId,
            revisionStatus: stored.status,
            ...(stored.risk ? { riskTier: stored.risk.tier } : {}),
          };

        const active = await store.readActive(scopeKey, input.skillId);
        if (!isLivePointer(active?.pointer)) {
          return {
            status: 'rejected',
            reason: `skill ${input.skillId} has no active revision in ${scopeKey}: GEPA submission only updates an existing skill`,
            scopeKey,
            revisionId,
          };
        }
        const pointer = active!.pointer;
        if (!pointer.managed) {
          return { status: 'rejected', reason: `skill ${input.skillId} is not in the managed area: automated updates are not allowed`, scopeKey, revisionId };
        }
        if (pointer.revisionId !== input.parentRevisionId) {
          const reason = `stale parent: the active revision of skill ${input.skillId} is ${pointer.revisionId}, but the experiment started from ${input.parentRevisionId}; the active skill was left unchanged`;
          await store.appendAudit({ id: `${revisionId}-stale_parent`, at: input.at, action: 'stale_parent', skillId: input.skillId, scopeKey, actor: 'gepa', reason });
          return { status: 'stale_parent', reason, scopeKey, revisionId };
        }

        const revision = buildGovernedRevision(
          {
            // An update keeps the skill's identity, whatever the seed was called.
            candidate: { action: 'update', source: 'gepa', spec: { ...input.spec, name: pointer.spec.name }, targetName: pointer.spec.name },
            revisionId,
            skillId: input.skillId,
            parentId: input.parentRevisionId,
            jobId: submissionJobId(input.experimentId),
            scope: input.scope,
            scopeKey,
            reason: `GEPA experiment ${input.experimentId}: holdout ${input.evidence.baselineHoldoutScore.toFixed(4)} → ${input.evidence.candidateHoldoutScore.toFixed(4)} on ${input.evidence.caseCount} cases`,
            evidence: input.evidence,
          },
          {
            existing: existingSkillsOf(await store.scopeIndexSnapshot(scopeKey)),
            outcome: outcomeFromEvidence(input.evidence),
            governance: input.governance,
            at: input.at,
            published: pointer.spec,
          },
        );
        await recorder.recordRevision({ revision });
        const reasons = revision.gates.flatMap((g) => (g.ran && !g.passed ? g.reasons : [])).concat(revision.human?.reasons ?? []);
        return {
          status: revision.status === 'rejected' ? 'rejected' : 'submitted',
          reason: `revision ${revisionId} stored as ${revision.status}${reasons.length ? `: ${reasons.join('; ')}` : ''}`,
          scopeKey,
          revisionId,
          revisionStatus: revision.status,
          ...(revision.risk ? { riskTier: revision.risk.tier } : {}),
        };
      });
    },
  };
}
