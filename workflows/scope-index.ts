import { condition, continueAsNew, defineQuery, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { newerChange, SCOPE_INDEX_SIGNALS, type IndexChange } from '../core/publication/scope-index';

export interface ScopeIndexInput {
  scopeKey: string;
  /** Changes carried over a continue-as-new. */
  pending?: IndexChange[];
  /** Full reconcile from the pointers this often (repairs a lost signal or any drift). */
  reconcileEveryMs?: number;
  reconcileDueAt?: number;
}

export interface ScopeIndexState {
  pending: number;
  bursts: number;
  reconciles: number;
}

/** "Skill X now points at revision R (or a tombstone), pointer seq N." */
export const indexChangeSignal = defineSignal<[IndexChange]>(SCOPE_INDEX_SIGNALS.change);
/** Reconcile from the pointers now (operators, tests). */
export const reconcileIndexSignal = defineSignal<[]>(SCOPE_INDEX_SIGNALS.reconcile);
export const scopeIndexStateQuery = defineQuery<ScopeIndexState>('indexState');

const { applyScopeIndexChanges } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds', nonRetryableErrorTypes: ['NonRetryableStoreError'] },
});
const { reconcileScopeIndex } = proxyActivities<Activities>({
  startToCloseTimeout: '20 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: ['NonRetryableStoreError'] },
});

const DEFAULT_RECONCILE_EVERY_MS = 15 * 60_000;
const MAX_HISTORY_EVENTS = 5_000;
const MAX_HISTORY_BYTES = 8 * 1024 * 1024;

/**
 * One per scope (id `scope-index/{scopeKey}`): the only writer of the scope's index.json
 * and SKILL.md files. Publishers signal pointer changes (signal-with-start) and never wait
 * for each other; the workflow applies every change pending at that moment in one
 * conditional write (a burst), keeping the highest seq per skill, so late or repeated
 * signals are harmless. Periodically (and on request) it reconciles from the pointers.
 */
export async function scopeIndexWorkflow(input: ScopeIndexInput): Promise<void> {
  const { scopeKey } = input;
  const reconcileEveryMs = input.reconcileEveryMs ?? DEFAULT_RECONCILE_EVERY_MS;
  const changes = new Map<string, IndexChange>();
  const add = (c: IndexChange): void => void changes.set(c.skillId, newerChange(changes.get(c.skillId), c));
  for (const c of input.pending ?? []) add(c);
  let reconcileRequested = false;
  const state: ScopeIndexState = { pending: 0, bursts: 0, reconciles: 0 };
  setHandler(indexChangeSignal, add);
  setHandler(reconcileIndexSignal, () => void (reconcileRequested = true));
  setHandler(scopeIndexStateQuery, () => ({ ...state, pending: changes.size }));

  const drain = () => {
    const burst = [...changes.values()];
    changes.clear();
    return burst;
  };
  let dueAt = input.reconcileDueAt ?? Date.now() + reconcileEveryMs;
  const historyFull = () => {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength > MAX_HISTORY_EVENTS || info.historySize > MAX_HISTORY_BYTES;
  };
  while (!historyFull()) {
    const wait = dueAt - Date.now();
    if (wait > 0) await condition(() => changes.size > 0 || reconcileRequested, wait);
    if (reconcileRequested || Date.now() >= dueAt) {
      reconcileRequested = false;
      await reconcileScopeIndex({ scopeKey, changes: drain() });
      state.reconciles++;
      dueAt = Date.now() + reconcileEveryMs;
    } else if (changes.size > 0) {
      await applyScopeIndexChanges({ scopeKey, changes: drain() });
      state.bursts++;
    }
  }
  await continueAsNew<typeof scopeIndexWorkflow>({ scopeKey, pending: drain(), reconcileEveryMs, reconcileDueAt: dueAt });
}
