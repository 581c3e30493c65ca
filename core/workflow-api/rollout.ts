import type { RolloutSettings } from '../rollout/decision';
import type { ApproverAction, RolloutCheck, RolloutProgress } from '../rollout/progress';
import { query, update } from './define';

export type { ApproverAction, RolloutCheck, RolloutProgress, RolloutSettings };

/** The staged rollout of one candidate revision (workflows/rollout.ts; id `rollout/{revisionId}`), started by the publisher. */
export const ROLLOUT_WORKFLOW = 'rolloutWorkflow';
export type RolloutWorkflow = (input: RolloutInput) => Promise<RolloutResult>;

export interface RolloutInput {
  scopeKey: string;
  skillId: string;
  candidateRevisionId: string;
  /** The revision the rest of the sessions keep (the pointer's own). */
  stableRevisionId: string;
  /** Workflow time the canary was written: the maximum duration counts from here. */
  startedAt: string;
  settings: RolloutSettings;
  /** How long decisions wait out storage outages (EVOLUTION_STORAGE_OUTAGE_TOLERANCE). */
  storageOutageToleranceMs?: number;
  /** Carried across continue-as-new. */
  progress?: RolloutProgress;
}

export type RolloutState = 'running' | 'held' | 'promoted' | 'rolled_back' | 'superseded';

export interface RolloutResult {
  candidateRevisionId: string;
  outcome: 'promoted' | 'rolled_back' | 'superseded';
  /** `rollout` (the test or the maximum duration), else the approver. */
  decidedBy: string;
  reason: string;
  at: string;
}

export interface RolloutStatus {
  scopeKey: string;
  skillId: string;
  candidateRevisionId: string;
  stableRevisionId: string;
  state: RolloutState;
  fraction: number;
  stepIndex: number;
  steps: number[];
  minSamplePerCohort: number;
  startedAt: string;
  /** When the maximum duration ends; `onExpiry` happens then. */
  deadline: string;
  onExpiry: RolloutSettings['onExpiry'];
  checks: number;
  last?: RolloutCheck;
  result?: RolloutResult;
}

/** An approver ends the rollout now: the candidate goes to 100 %. Refused once the rollout has decided. */
export const promoteRolloutUpdate = update<RolloutStatus, [ApproverAction]>('promote');
/** An approver ends the rollout now: the canary is rolled back, the stable revision stays. */
export const abortRolloutUpdate = update<RolloutStatus, [ApproverAction]>('abort');
export const rolloutStatusQuery = query<RolloutStatus>('status');
