import type { Revision } from '../core';
import { jobPublication, outcomeWithRevision, type OutcomeToRecord, type RecordedRevision } from '../core/governance';
import { withStoreErrors } from './errors';
import type { PublishInput, PublishResult } from './publisher';
import type { RecordRevisionInput } from './record';
import type { SkillStore } from '../storage';
import type { ScopeRecording } from './usage';

export interface RecordAndPublishInput {
  jobId: string;
  /** A gated revision that passed every gate (`pending`), which the job publishes now. */
  revision: Revision;
  /** This is the job's last write: its outcome is recorded once the publication applied. */
  outcome?: OutcomeToRecord;
}

export interface JobPublicationDeps {
  store: SkillStore;
  recordRevision(input: RecordRevisionInput): Promise<RecordedRevision>;
  publishRevision(input: PublishInput): Promise<PublishResult>;
  noteSession?: ScopeRecording['noteSession'];
}

/**
 * A learning job's publication as one activity: the revision is recorded (create-only,
 * decided for publication), published (the pointer's conditional PUT and the index signal),
 * and, when it is the job's last write, the job's outcome recorded. Each write is idempotent,
 * so a retry repeats them harmlessly. One task-queue activity instead of a local one for the
 * record, this one and a local one for the outcome: each activity costs the worker a workflow
 * activation and an activity execution.
 */
export function jobPublicationActivities({ store, recordRevision, publishRevision, noteSession }: JobPublicationDeps) {
  return {
    async recordAndPublishRevision({ jobId, revision, outcome }: RecordAndPublishInput): Promise<PublishResult> {
      const recorded = await recordRevision({ revision, publishNow: true });
      const published = await publishRevision(jobPublication(jobId, revision, recorded));
      if (outcome) await withStoreErrors(() => store.writeJobOutcome(outcomeWithRevision(outcome.before, revision, published.status, published.indexSeq), outcome.at));
      if (outcome?.usage) noteSession?.(revision.scopeKey, outcome.usage.session, outcome.usage.indexEtag);
      return published;
    },
  };
}
