import type { RejectionNote } from '../core/governance/rejections';
import type { SkillStore } from '../storage';
import { whileHeartbeating } from './heartbeat';
import type { SignalRejections } from './scope-index-signal';

/** How long a rejection waits for the scope index to name it; after that the index follows (its next burst). */
const INDEX_WAIT_MS = 10_000;

/**
 * Records an approver's (or a rollout's) rejection with its comment, announces the new
 * version of the scope's rejections to the scope index, and waits until the index names it:
 * a review that starts once the decision has returned reads that index and sees the note.
 * Idempotent: a retry finds the note recorded and announces the same version again.
 */
export async function recordRejection(store: SkillStore, signalRejections: SignalRejections, scopeKey: string, note: RejectionNote): Promise<void> {
  const version = await store.recordRejection(scopeKey, note);
  await signalRejections(scopeKey, version);
  await whileHeartbeating(() => store.readScopeIndexIncluding(scopeKey, [], { timeoutMs: INDEX_WAIT_MS, rejections: version }));
}
