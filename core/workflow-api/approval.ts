import type { ApprovalDecision } from '../governance/approval-decision';
import type { RevisionRef } from '../governance/types';
import { query, signal, update } from './define';

export type { ApprovalDecision };

/** One held revision until an approver decides (workflows/approval.ts; id `approval/{revisionId}`). */
export const APPROVAL_WORKFLOW = 'approvalWorkflow';
export type ApprovalWorkflow = (input: ApprovalInput) => Promise<ApprovalResult>;

export interface ApprovalInput {
  revision: RevisionRef;
  /** Decide after this long (reviewer `auto-expire`); undefined waits forever. */
  timeoutMs?: number;
  /**
   * What the timeout does (approvalExpiryAction: always reject for a high-risk revision).
   * Absent in approvals started before the setting existed: they promote, as they did.
   */
  expiryAction?: 'promote' | 'reject';
  /** GEPA submissions: publication requires the active revision to still be this one. */
  requireParentId?: string;
  /** Marks a revision that came from offline optimization (audit wording only). */
  source?: 'reviewer' | 'gepa';
  /** How long the publication waits out storage outages (EVOLUTION_STORAGE_OUTAGE_TOLERANCE; default a day). */
  storageOutageToleranceMs?: number;
}

export interface ApprovalResult {
  revisionId: string;
  /** auto_expired: promoted by the timeout; auto_rejected: rejected by it. */
  decision: 'approved' | 'rejected' | 'auto_expired' | 'auto_rejected' | 'stale_parent';
  reviewer: string;
  comment: string;
  finalStatus: string;
}

export interface ApprovalStatus {
  revisionId: string;
  decided: boolean;
  decision?: ApprovalDecision;
  deadline?: string;
  /** What happens at the deadline. */
  expiryAction?: 'promote' | 'reject';
}

/** Fire-and-forget decision; works from any Temporal client or `temporal workflow signal`. */
export const decideSignal = signal<[ApprovalDecision]>('decide');
/** The same decision with an answer: rejected up front when already decided or malformed. */
export const decideUpdate = update<ApprovalStatus, [ApprovalDecision]>('decideWithAnswer');
export const approvalStatusQuery = query<ApprovalStatus>('status');
