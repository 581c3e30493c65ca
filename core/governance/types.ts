import type { ModelAnswerRecord } from '../llm/repairs';
import type { RevisionAction, RevisionStatus } from '../schemas';

/** Where a revision lives; enough for any activity to find it. */
export interface RevisionRef {
  scopeKey: string;
  skillId: string;
  revisionId: string;
}

/** What a rollback did: the revision it restored and the one it archived (if any). */
export interface RollbackResult {
  skillId: string;
  restoredRevisionId: string;
  archivedRevisionId?: string;
}

export interface RevisionSummary {
  revisionId: string;
  skillId: string;
  name: string;
  action: RevisionAction;
  status: RevisionStatus;
  shadowBypassed: boolean;
  reasons: string[];
  /**
   * Published by this job: the pointer seq its publication announced to the scope's index
   * (the index includes the publication once it holds this seq for the skill).
   */
  indexSeq?: number;
}

export interface DroppedCandidate {
  name: string;
  list: 'creates' | 'updates' | 'deletions';
  reason: string;
}

export type JobStatus = 'policy_skipped' | 'reviewer_skipped' | 'reviewer_failed' | 'quarantined' | 'reviewed';

/** One failed review of a delta (kept per scope, session and delta fingerprint). */
export interface ReviewFailure {
  jobId: string;
  reason: string;
  at: string;
}

/** What a learning job did; stored at `jobs/{scope tag}/{job tag}.json` (storage jobOutcomeKey) and returned to `--wait`. */
export interface JobOutcome {
  jobId: string;
  scopeKey: string;
  sessionId: string;
  status: JobStatus;
  reason: string;
  deltaEvents: number;
  cursorAdvanced: boolean;
  revisions: RevisionSummary[];
  dropped: DroppedCandidate[];
  /** Status `quarantined`: the failed reviews that made this delta poison. */
  quarantinedAfter?: ReviewFailure[];
  /** Reviewed or reviewer_skipped: how the reviewer's answer was obtained (response format, repairs, tokens). */
  reviewerAnswer?: ModelAnswerRecord;
}
