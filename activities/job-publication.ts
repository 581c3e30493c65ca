import type { Revision } from '../core';
import { jobPublication, outcomeWithRevision, type OutcomeToRecord, type RecordedRevision } from '../core/governance';
import { withStoreErrors } from './errors';
import { whileHeartbeating } from './heartbeat';
import type { PointerPublication, PublishInput, PublishResult } from './publisher';
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
  publishPointer(input: PublishInput): Promise<PointerPublication>;
  noteSession?: ScopeRecording['noteSession'];
  /** Sends the records this activity's writes collected so far to their scopes' usage workflows (scopeRecording's `sendCollected`). */
  sendCollected?: ScopeRecording['sendCollected'];
}

/**
 * A learning job's publication as one activity: the revision is recorded (create-only,
 * decided for publication), published (the pointer's conditional PUT and the index signal),
 * and, when it is the job's last write, the job's outcome recorded. Each write is idempotent,
 * so a retry repeats them harmlessly. One task-queue activity instead of a local one for the
 * record, this one and a local one for the outcome: each activity costs the worker a workflow
 * activation and an activity execution.
 *
 * Once the pointer moved, the scope's index workflow and its usage workflow (the outcome, the
 * session's usage and what the writes add to the counters) are told at the same time: each is
 * a signal to a workflow that every job of the scope signals, hundreds of milliseconds in a
 * busy scope, and neither needs the other.
 */
export function jobPublicationActivities({ store, recordRevision, publishPointer, noteSession, sendCollected }: JobPublicationDeps) {
  return {
    async recordAndPublishRevision({ jobId, revision, outcome }: RecordAndPublishInput): Promise<PublishResult> {
      return withStoreErrors(() =>
        whileHeartbeating(async () => {
          const recorded = await recordRevision({ revision, publishNow: true, ...(outcome ? { outcomeFollows: outcome } : {}) });
          const { published, tellIndex } = await publishPointer(jobPublication(jobId, revision, recorded));
          const recordOutcome = async (last: OutcomeToRecord) => {
            await store.writeJobOutcome(outcomeWithRevision(last.before, revision, published.status, published.indexSeq), last.at);
            if (last.usage) noteSession?.(revision.scopeKey, last.usage.session, last.usage.indexEtag);
            await sendCollected?.();
          };
          await Promise.all([tellIndex(), outcome && recordOutcome(outcome)]);
          return published;
        }),
      );
    },
  };
}
