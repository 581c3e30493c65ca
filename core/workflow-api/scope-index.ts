import { SCOPE_INDEX_APPLY_UPDATE, SCOPE_INDEX_SIGNALS, type IndexApplied, type IndexChange } from '../publication/scope-index';
import { query, signal, update } from './define';

// The messages of a scope's index workflow (workflows/scope-index.ts), declared apart from it
// so that what imports them (other workflows, the worker's entry, tests) does not load it.

export interface ScopeIndexState {
  pending: number;
  bursts: number;
  reconciles: number;
}

/**
 * "Skill X now points at revision R (or a tombstone), pointer seq N", one change per
 * argument: a worker sends the changes of its concurrent publications in one signal.
 */
export const indexChangeSignal = signal<IndexChange[]>(SCOPE_INDEX_SIGNALS.change);
/** The scope's rejections reached this version (one argument per announcement; the highest wins). */
export const rejectionsRecordedSignal = signal<number[]>(SCOPE_INDEX_SIGNALS.rejections);
/** Reconcile from the pointers now (operators, tests). */
export const reconcileIndexSignal = signal<[]>(SCOPE_INDEX_SIGNALS.reconcile);
export const scopeIndexStateQuery = query<ScopeIndexState>('indexState');
/**
 * A pointer change from a publisher that waits for it (update-with-start): the answer is its
 * ack, so neither workflow spends a task on an IndexApplied signal.
 */
export const applyIndexChangeUpdate = update<boolean, [IndexChange]>(SCOPE_INDEX_APPLY_UPDATE);
/** Received by a publishing workflow once its change is in the index. */
export const indexAppliedSignal = signal<[IndexApplied]>(SCOPE_INDEX_SIGNALS.applied);
