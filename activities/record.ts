import { Context } from '@temporalio/activity';
import { auditEventId, type Revision } from '../core';
import { decidedForPublication, outcomeLocates, outcomeWithRevision, type OutcomeToRecord, type RecordedRevision } from '../core/governance';
import { withStoreErrors } from './errors';
import { sameJson } from '../storage/canonical-json';
import type { SkillStore } from '../storage';
import type { ScopeRecording } from './usage';

/**
 * A revision published next is not its job's last write: the publication records the outcome
 * (`outcomeFollows`: the publication is the job's last write, so that outcome locates the revision).
 */
export type RecordRevisionInput =
  { revision: Revision; publishNow?: false; outcome?: OutcomeToRecord } | { revision: Revision; publishNow: true; outcome?: never; outcomeFollows?: OutcomeToRecord };

/**
 * Stores a gated revision (create-only, idempotent) with its audit trail. A revision that
 * passed every gate (`pending`) and that the caller publishes next (`publishNow`) is stored
 * as decided for publication (`active`; its derived status stays `pending` until its
 * publication applies, see core revisionStatus), and its publication's log entry is its
 * audit event: nothing else is written for it here.
 * Returns `asWritten` when the stored revision is exactly that one (the caller knows it:
 * `decidedForPublication`), so a 1 to 2 KB revision does not travel through history again;
 * otherwise the stored copy (a retry that finds it moved on in its lifecycle).
 * `outcome`: this is its job's last write (a revision held or rejected), so the job's outcome
 * is recorded after it, with this revision in its gated status.
 */
export function recordActivities({ store, noteSession }: { store: SkillStore; noteSession?: ScopeRecording['noteSession'] }) {
  return {
    async recordRevision(input: RecordRevisionInput): Promise<RecordedRevision> {
      const { revision: gated, publishNow = false, outcome } = input;
      // The job's outcome, recorded by this activity after the revision, is what finds it by id: it needs no locator.
      // Unless this is a retry: an earlier attempt may have stored the revision and died before the outcome, and the
      // job may never get that far (an outage longer than its tolerance), so a retried attempt writes the locator too.
      const locatingOutcome = outcome ?? (input.publishNow ? input.outcomeFollows : undefined);
      const locatedByJobOutcome = locatingOutcome !== undefined && outcomeLocates(locatingOutcome.before, gated.id) && Context.current().info.attempt === 1;
      return withStoreErrors(async () => {
        const revision = publishNow ? decidedForPublication(gated) : gated;
        const stored = await store.createRevision(revision, { locatedByJobOutcome });
        const recorded: RecordedRevision = sameJson(stored, revision) ? { asWritten: true } : stored;
        if (revision.status === 'active') return recorded;
        // The operation is the revision's recording: its id is the revision id.
        const event = (action: 'write_revision' | 'reject' | 'hold', reason: string) =>
          store.appendAudit({
            id: auditEventId(revision.id, action),
            opId: revision.id,
            at: revision.createdAt,
            action,
            skillId: revision.skillId,
            scopeKey: revision.scopeKey,
            revisionId: revision.id,
            status: revision.status,
            actor: revision.source,
            reason,
          });
        await event('write_revision', revision.reason);
        const reasons = revision.gates.flatMap((g) => (g.ran && !g.passed ? g.reasons : [])).concat(revision.human?.held ? revision.human.reasons : []);
        if (revision.status === 'rejected') await event('reject', reasons.join('; '));
        if (revision.status === 'pending_eval' || revision.status === 'pending_approval') await event('hold', reasons.join('; '));
        if (outcome) await store.writeJobOutcome(outcomeWithRevision(outcome.before, gated, gated.status), outcome.at);
        if (outcome?.usage) noteSession?.(revision.scopeKey, outcome.usage.session, outcome.usage.indexEtag);
        return recorded;
      });
    },
  };
}
