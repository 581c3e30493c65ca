import type { SessionUsage } from '../usage/attribution';
import type { ScopeRecord } from '../usage/records';
import { SCOPE_RECORDS_SIGNAL, SCOPE_USAGE_SIGNAL } from '../usage/names';
import { query, signal } from './define';

// The messages of a scope's usage workflow (workflows/scope-usage.ts), declared apart from it
// so that what imports them does not load it.

export interface ScopeUsageState {
  pending: number;
  bursts: number;
  counted: number;
  /** Sessions whose burst failed for good (an outage longer than the tolerance, a corrupt summary): visible, never retried forever. */
  lostSessions: number;
}

/** One job's usage per argument: a worker sends the usages of its concurrent jobs in one signal (workers before scope records). */
export const usageRecordedSignal = signal<SessionUsage[]>(SCOPE_USAGE_SIGNAL);
/** One activity's records per argument (activities/usage.ts scopeRecording). */
export const scopeRecordedSignal = signal<ScopeRecord[][]>(SCOPE_RECORDS_SIGNAL);
export const scopeUsageStateQuery = query<ScopeUsageState>('usageState');
