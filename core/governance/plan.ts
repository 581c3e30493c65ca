import { findExistingSkill, reconcileDecision } from '../learning/reconcile';
import { learningRevisionIdFor } from '../learning/revision-id';
import { skillIdForName } from '../skills/scope-key';
import type { ExistingSkill, Outcome, ReviewDecision, Revision, Scope, SkillSpec } from '../schemas';
import { buildGovernedRevision, type GovernanceSettings, type RevisionDraft } from './build-revision';
import type { DroppedCandidate } from './types';

export interface PlanInput {
  decision: ReviewDecision;
  existingSkills: readonly ExistingSkill[];
  jobId: string;
  scope: Scope;
  scopeKey: string;
  outcome?: Outcome;
  governance: GovernanceSettings;
  /** Workflow time; becomes the revisions' createdAt. */
  at: string;
  /**
   * The published spec of each skill an update targets, by revision id (updatesNeedingPublished
   * names them): the risk tier is the update's diff against it. A missing one counts the whole
   * update as new, which can only raise the tier.
   */
  publishedSpecs?: Readonly<Record<string, SkillSpec>>;
}

export interface RevisionPlan {
  revisions: Revision[];
  dropped: DroppedCandidate[];
  /** Rewrites the reconciler made (create → update and the like), with reasons. */
  rewrites: DroppedCandidate[];
}

/**
 * From a reviewer decision to governed revisions, deterministically: reconcile against
 * the scope's skills, then one revision per surviving candidate, with ids derived from
 * (job id, ordinal) so a replay or retry never mints a second revision.
 */
export function planRevisions(input: PlanInput): RevisionPlan {
  const { decision, events } = reconcileDecision(input.decision, input.existingSkills);
  const dropped = events.filter((e) => e.kind.startsWith('drop_')).map((e) => ({ name: e.original, list: e.list, reason: e.reason }));
  const rewrites = events.filter((e) => e.kind.startsWith('rewrite_')).map((e) => ({ name: e.original, list: e.list, reason: e.reason }));
  const drafts: Omit<RevisionDraft, 'revisionId' | 'jobId' | 'scope' | 'scopeKey'>[] = [];

  for (const spec of decision.creates) {
    drafts.push({
      candidate: { action: 'create', source: 'reviewer', spec, targetName: spec.name },
      skillId: skillIdForName(spec.name),
      reason: 'new skill proposed by the reviewer',
    });
  }
  for (const update of decision.updates) {
    const target = findExistingSkill(update.name, input.existingSkills);
    if (!target) continue; // the reconciler already dropped unknown targets
    drafts.push({
      candidate: { action: 'update', source: 'reviewer', spec: { ...update.new_spec, name: target.name }, targetName: target.name },
      skillId: target.skillId,
      parentId: target.revisionId,
      reason: update.reason || 'update proposed by the reviewer',
    });
  }
  for (const name of decision.deletions) {
    const target = findExistingSkill(name, input.existingSkills);
    if (!target) continue;
    drafts.push({
      candidate: { action: 'delete', source: 'reviewer', targetName: target.name },
      skillId: target.skillId,
      parentId: target.revisionId,
      reason: 'deletion proposed by the reviewer',
    });
  }

  const revisions = drafts.map((d, ordinal) =>
    buildGovernedRevision(
      { ...d, revisionId: learningRevisionIdFor(input.scopeKey, input.jobId, ordinal), jobId: input.jobId, scope: input.scope, scopeKey: input.scopeKey },
      {
        existing: input.existingSkills,
        outcome: input.outcome,
        governance: input.governance,
        at: input.at,
        published: d.parentId !== undefined ? input.publishedSpecs?.[d.parentId] : undefined,
      },
    ),
  );
  return { revisions, dropped, rewrites };
}

/** The published revisions (skill id, revision id) a plan's updates target: read their specs and plan again with publishedSpecs. */
export function updatesNeedingPublished(plan: RevisionPlan): Array<{ skillId: string; revisionId: string }> {
  return plan.revisions.filter((r) => r.action === 'update' && r.parentId !== undefined).map((r) => ({ skillId: r.skillId, revisionId: r.parentId! }));
}
