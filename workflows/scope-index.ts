import { allHandlersFinished, condition, continueAsNew, getExternalWorkflowHandle, proxyActivities, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { indexBurstLocalRetry, indexBurstRetry, indexReconcileRetry } from './retry-policies';
import { deadlineWaiter } from './alarm';
import { retiredPatch } from './retired-patch';
import { newerChange, type IndexChange } from '../core/publication/scope-index';
import {
  applyIndexChangeUpdate,
  indexAppliedSignal,
  indexChangeSignal,
  reconcileIndexSignal,
  rejectionsRecordedSignal,
  scopeIndexStateQuery,
  type ScopeIndexState,
} from '../core/workflow-api/scope-index';

export interface ScopeIndexInput {
  scopeKey: string;
  /** Changes (and the workflows waiting for them) carried over a continue-as-new. */
  pending?: IndexChange[];
  waiting?: Waiter[];
  /** Full reconcile from the pointers this often (repairs a lost signal or any drift). */
  reconcileEveryMs?: number;
  reconcileDueAt?: number;
  /** Reconciles in a row that found nothing to repair and saw no change (each one doubles the wait, up to a day). */
  quietReconciles?: number;
  /** A rejections version announced and not yet written, carried over a continue-as-new. */
  rejections?: number;
}

interface Waiter {
  workflowId: string;
  skillId: string;
  seq: number;
}

/**
 * A burst is one GET and one conditional PUT, and its input (the drained changes) comes
 * from signals in history, so running it again after a crash mid-task writes the same
 * index: it runs inside the workflow task. That saves an activity task and a workflow task
 * per burst (for a new scope, per publication), and history holds the changes once, as
 * signals, not again as an activity's input. It gets a few quick attempts inside the
 * workflow task; when storage is down beyond them, it becomes a task-queue activity whose
 * retries the server schedules, so an outage never holds a workflow task open. (Patch
 * `bounded-local-index-bursts`, retired.)
 */
const BOUNDED_LOCAL_BURSTS = 'bounded-local-index-bursts';
const boundedLocalBursts = proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: indexBurstLocalRetry });
const remoteBursts = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', heartbeatTimeout: '20 seconds', retry: indexBurstRetry });

async function applyBurst(input: { scopeKey: string; changes: IndexChange[]; rejections?: number }): Promise<void> {
  retiredPatch(BOUNDED_LOCAL_BURSTS);
  try {
    await boundedLocalBursts.applyScopeIndexChanges(input);
  } catch {
    await remoteBursts.applyScopeIndexChanges(input);
  }
}
const { reconcileScopeIndex } = proxyActivities<Activities>({
  startToCloseTimeout: '20 minutes',
  heartbeatTimeout: '30 seconds',
  retry: indexReconcileRetry,
});

const DEFAULT_RECONCILE_EVERY_MS = 15 * 60_000;
const MAX_RECONCILE_EVERY_MS = 24 * 60 * 60_000;
/** Retired: the index waits for its next reconcile on an alarm (workflows/alarm.ts), not a timer cancelled at each burst. */
const INDEX_ALARM_PATCH = 'scope-index-reconcile-alarm';
const MAX_HISTORY_EVENTS = 5_000;
const MAX_HISTORY_BYTES = 8 * 1024 * 1024;

/**
 * One per scope (id `scope-index/{scopeKey}`): the only writer of the scope's index.json.
 * Publishers signal pointer changes (signal-with-start) and never wait
 * for each other; the workflow applies every change pending at that moment in one
 * conditional write (a burst), keeping the highest seq per skill, so late or repeated
 * signals are harmless. Periodically (and on request) it reconciles from the pointers.
 */
export async function scopeIndexWorkflow(input: ScopeIndexInput): Promise<void> {
  const { scopeKey } = input;
  const reconcileEveryMs = input.reconcileEveryMs ?? DEFAULT_RECONCILE_EVERY_MS;
  const changes = new Map<string, IndexChange>();
  let waiting: Waiter[] = [...(input.waiting ?? [])];
  const add = (c: IndexChange): void => {
    if (c.ackTo) waiting.push({ workflowId: c.ackTo, skillId: c.skillId, seq: c.seq });
    const { ackTo: _, ...change } = c;
    changes.set(c.skillId, newerChange(changes.get(c.skillId), change));
  };
  for (const c of input.pending ?? []) add(c);
  let reconcileRequested = false;
  // The rejections version to write with the next burst (undefined: none announced since the last one).
  let rejections = input.rejections;
  const state: ScopeIndexState = { pending: 0, bursts: 0, reconciles: 0 };
  setHandler(indexChangeSignal, (...received) => received.forEach(add));
  setHandler(rejectionsRecordedSignal, (...versions) => void (rejections = Math.max(rejections ?? 0, ...versions.filter(Number.isSafeInteger))));
  setHandler(reconcileIndexSignal, () => void (reconcileRequested = true));
  setHandler(scopeIndexStateQuery, () => ({ ...state, pending: changes.size }));
  // Highest seq per skill that a burst or reconcile of this run has materialized.
  const appliedSeq = new Map<string, number>();
  const markApplied = (burst: IndexChange[]) => {
    for (const c of burst) appliedSeq.set(c.skillId, Math.max(appliedSeq.get(c.skillId) ?? -1, c.seq));
  };
  let continuing = false;
  setHandler(applyIndexChangeUpdate, async ({ ackTo, ...change }) => {
    add(change);
    const materialized = () => (appliedSeq.get(change.skillId) ?? -1) >= change.seq;
    await condition(() => materialized() || continuing);
    const applied = materialized();
    // Continuing as new before the next burst: the next run acks by signal, like a signalled change.
    if (!applied && ackTo) waiting.push({ workflowId: ackTo, skillId: change.skillId, seq: change.seq });
    return applied;
  });

  const drain = () => {
    const burst = [...changes.values()];
    changes.clear();
    const acks = waiting;
    waiting = [];
    const announced = rejections === undefined ? {} : { rejections };
    rejections = undefined;
    return { burst, acks, announced };
  };
  // Acks are best effort: a publisher that stopped waiting (or finished) loses nothing.
  const ack = (acks: Waiter[]) =>
    Promise.all(
      acks.map((w) =>
        getExternalWorkflowHandle(w.workflowId)
          .signal(indexAppliedSignal, { scopeKey, skillId: w.skillId, seq: w.seq })
          .catch(() => undefined),
      ),
    );
  // An idle scope is reconciled less and less often (15 min, 30 min, … up to a day); any change resets that.
  let quiet = input.quietReconciles ?? 0;
  let changedSinceReconcile = false;
  const nextDue = () => new Date().getTime() + Math.min(MAX_RECONCILE_EVERY_MS, reconcileEveryMs * 2 ** Math.min(quiet, 16));
  let dueAt = input.reconcileDueAt ?? nextDue();
  retiredPatch(INDEX_ALARM_PATCH);
  const reconcileWait = deadlineWaiter();
  const woken = () => changes.size > 0 || rejections !== undefined || reconcileRequested;
  while (!indexHistoryFull()) {
    const wait = dueAt - new Date().getTime();
    if (wait > 0) await reconcileWait(woken, dueAt);
    if (reconcileRequested || new Date().getTime() >= dueAt) {
      reconcileRequested = false;
      const { burst, acks, announced } = drain();
      const { applied } = await reconcileScopeIndex({ scopeKey, changes: burst, ...announced });
      markApplied(burst);
      await ack(acks);
      state.reconciles++;
      quiet = applied === 0 && !changedSinceReconcile && burst.length === 0 ? quiet + 1 : 0;
      changedSinceReconcile = false;
      dueAt = nextDue();
    } else if (changes.size > 0 || rejections !== undefined) {
      const { burst, acks, announced } = drain();
      await applyBurst({ scopeKey, changes: burst, ...announced });
      markApplied(burst);
      await ack(acks);
      state.bursts++;
      changedSinceReconcile = true;
    }
  }
  continuing = true;
  await condition(allHandlersFinished);
  const { burst, acks, announced } = drain();
  await continueAsNew<typeof scopeIndexWorkflow>({ scopeKey, pending: burst, waiting: acks, reconcileEveryMs, reconcileDueAt: dueAt, quietReconciles: quiet, ...announced });
}

/** When an index run continues as new: before its history grows large. */
export function indexHistoryFull(): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > MAX_HISTORY_EVENTS || info.historySize > MAX_HISTORY_BYTES;
}
