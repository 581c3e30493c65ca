import { learningJobTag, learningJobTagOf } from '../learning/revision-id';
import type { JobUsage } from '../usage/records';
import type { Revision, RevisionStatus } from '../schemas';
import type { JobOutcome, RevisionSummary } from './types';

/** A job's summary of one revision it handled, in the status the job left it in. */
export function revisionSummary(revision: Revision, status: RevisionStatus, indexSeq?: number): RevisionSummary {
  return {
    revisionId: revision.id,
    skillId: revision.skillId,
    name: revision.spec?.name ?? revision.skillId,
    action: revision.action,
    status,
    shadowBypassed: revision.shadowBypassed,
    reasons: revision.gates.flatMap((g) => g.reasons).concat(revision.human?.reasons ?? []),
    ...(indexSeq === undefined ? {} : { indexSeq }),
  };
}

/**
 * The outcome a job records in its last write: what it did before that write, plus the
 * write's revision in the status the write left it in. The write's activity and the job's
 * workflow both build it from the same inputs, so the outcome stored and the one returned
 * are the same.
 */
export function outcomeWithRevision(before: JobOutcome, revision: Revision, status: RevisionStatus, indexSeq?: number): JobOutcome {
  return { ...before, revisions: [...before.revisions, revisionSummary(revision, status, indexSeq)] };
}

/** What a job's last write records besides its revision: the outcome so far, at workflow time. */
export interface OutcomeToRecord {
  /** The job's outcome without the revision of the write that records it. */
  before: JobOutcome;
  at: string;
  /** The job's usage (usage attribution), counted with the outcome. */
  usage?: JobUsage;
}

/**
 * Whether the stored outcome of a job finds `revisionId` by bare id: outcomes are keyed by
 * the job tag a learning job's revision ids carry (core learningRevisionIdFor).
 */
export function outcomeLocates(outcome: Pick<JobOutcome, 'scopeKey' | 'jobId'>, revisionId: string): boolean {
  const carried = learningJobTagOf(revisionId);
  if (!carried) return false;
  const tag = learningJobTag(outcome.scopeKey, outcome.jobId);
  return carried.scope === tag.scope && carried.job === tag.job;
}
