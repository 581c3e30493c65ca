import { finalStatus, runGates, type GateCandidate, type HumanGatePolicy } from '../learning/gates';
import type { Evidence, ExistingSkill, Outcome, Revision, Scope } from '../schemas';

export interface GovernanceSettings {
  humanGate: HumanGatePolicy;
  approvalTimeoutMs?: number;
  shadowMode: boolean;
  minToolCalls: number;
  effectivenessThreshold: number;
}

export interface RevisionDraft {
  candidate: GateCandidate;
  revisionId: string;
  skillId: string;
  parentId?: string;
  jobId: string;
  scope: Scope;
  scopeKey: string;
  reason: string;
  evidence?: Evidence;
}

/**
 * Runs the gates on one candidate and returns the revision to store. A revision that
 * passes everything (or is bypassed by shadow mode) is stored as `pending` and moves to
 * `active` only by publication: generating a candidate never changes what agents load.
 */
export function buildGovernedRevision(
  draft: RevisionDraft,
  context: { existing: readonly ExistingSkill[]; outcome?: Outcome; governance: GovernanceSettings; at: string },
): Revision {
  const run = runGates({
    candidate: draft.candidate,
    existing: context.existing,
    outcome: context.outcome,
    settings: { humanGate: context.governance.humanGate, effectivenessThreshold: context.governance.effectivenessThreshold },
  });
  const verdict = finalStatus(run, { shadowMode: context.governance.shadowMode, source: draft.candidate.source });
  const status = verdict.status === 'active' ? 'pending' : verdict.status;
  return {
    id: draft.revisionId,
    skillId: draft.skillId,
    scopeKey: draft.scopeKey,
    scope: draft.scope,
    action: draft.candidate.action,
    status,
    spec: draft.candidate.spec,
    parentId: draft.parentId,
    source: draft.candidate.source,
    jobId: draft.jobId,
    reason: draft.reason,
    gates: run.gates,
    human: run.human,
    evidence: draft.evidence,
    shadowBypassed: verdict.shadowBypassed,
    createdAt: context.at,
    updatedAt: context.at,
    history: [],
  };
}
