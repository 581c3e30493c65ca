import { finalStatus, HIGH_RISK, runGates, type GateCandidate, type HumanGatePolicy } from '../learning/gates';
import type { Evidence, ExistingSkill, HumanReport, Outcome, Revision, Scope, SkillSpec } from '../schemas';

export interface GovernanceSettings {
  humanGate: HumanGatePolicy;
  approvalTimeoutMs?: number;
  /** What an approval timeout does to a low-risk revision; absent in settings recorded by older jobs (then: promote, as they did). */
  approvalExpiryAction?: 'promote' | 'reject';
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
  context: { existing: readonly ExistingSkill[]; outcome?: Outcome; governance: GovernanceSettings; at: string; published?: SkillSpec },
): Revision {
  const run = runGates({
    candidate: draft.candidate,
    existing: context.existing,
    outcome: context.outcome,
    published: context.published,
    settings: { humanGate: context.governance.humanGate, effectivenessThreshold: context.governance.effectivenessThreshold },
  });
  const verdict = finalStatus(run, { shadowMode: context.governance.shadowMode, source: draft.candidate.source });
  const status = verdict.status === 'active' ? 'pending' : verdict.status;
  // Shadow mode holds a high-risk revision that the human gate never saw (another gate stopped it): say why.
  const human: HumanReport | undefined =
    status === 'pending_approval' && !run.human?.held ? { held: true, heldForRisk: true, reasons: run.risk.reasons.map((r) => `${HIGH_RISK}: ${r}`) } : run.human;
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
    human,
    risk: run.risk,
    evidence: draft.evidence,
    shadowBypassed: verdict.shadowBypassed,
    createdAt: context.at,
    updatedAt: context.at,
    history: [],
  };
}
