import type { Scope } from '../schemas/scope';
import type { SparedSkill } from '../curation/plan';

/** One scope's curator run (workflows/curator.ts; scheduled per scope, id `curate/{scopeKey}-{schedule time}`). */
export const CURATOR_WORKFLOW = 'curatorWorkflow';
export type CuratorWorkflow = (input: CuratorInput) => Promise<CuratorResult>;

export interface CuratorInput {
  scope: Scope;
  /** Archive skills not loaded over this window (default 30 days). */
  windowMs?: number;
  /** Word similarity (0..1] from which two skills are near-duplicates (default 0.6). */
  similarityThreshold?: number;
  /** Merges per run (default 5): each is a model call. */
  maxMerges?: number;
  /** Archive proposals follow the scope's human-gate policy instead of being held (default false: held). */
  autoArchive?: boolean;
  /** Archived skills asked for again (`evolution revive`), by name or id. */
  revive?: string[];
  requestedBy?: string;
}

export interface CuratorRevision {
  revisionId: string;
  skillId: string;
  status: string;
  alreadyProposed: boolean;
  /** The approval workflow holding it, when it waits for a person. */
  approvalWorkflowId?: string;
}

export interface CuratorProposalOutcome {
  kind: 'archive' | 'revive' | 'merge';
  skills: string[];
  reason: string;
  /** proposed: stored (held, or published when nobody has to approve it); refused: a gate (or the preservation check) rejected it; stale: a skill changed since the plan; failed: an error (reason). */
  outcome: 'proposed' | 'already_proposed' | 'refused' | 'stale' | 'failed';
  detail?: string;
  revisions: CuratorRevision[];
}

export interface CuratorResult {
  runId: string;
  scopeKey: string;
  /** The run's time (the schedule's, for a scheduled run): the usage window ends here. */
  at: string;
  windowDays: number;
  proposals: CuratorProposalOutcome[];
  spared: SparedSkill[];
}
