import type { JobOutcome } from '../../core/governance';

/** A reviewed job's outcome before its revisions are added (what its last write is given). */
export function reviewedOutcomeBefore(jobId: string, scopeKey: string, extra: Partial<JobOutcome> = {}): JobOutcome {
  return {
    jobId,
    scopeKey,
    sessionId: 's',
    status: 'reviewed',
    reason: 'reviewer proposed changes',
    deltaEvents: 12,
    cursorAdvanced: true,
    revisions: [],
    dropped: [],
    ...extra,
  };
}
