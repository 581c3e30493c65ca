import { allHandlersFinished, condition, continueAsNew, defineQuery, defineSignal, log, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { SCOPE_USAGE_SIGNAL } from '../core/usage/names';
import type { SessionUsage } from '../core/usage/attribution';
import { storageRetry } from './retry-policies';

export interface ScopeUsageInput {
  scopeKey: string;
  /** Sessions received and not yet counted, carried over a continue-as-new. */
  pending?: SessionUsage[];
  lostSessions?: number;
}

export interface ScopeUsageState {
  pending: number;
  bursts: number;
  counted: number;
  /** Sessions whose burst failed every attempt (S3 down for minutes, a corrupt counters object): visible, never retried forever. */
  lostSessions: number;
}

/** One job's usage per argument: a worker sends the usages of its concurrent jobs in one signal. */
export const usageRecordedSignal = defineSignal<SessionUsage[]>(SCOPE_USAGE_SIGNAL);
export const scopeUsageStateQuery = defineQuery<ScopeUsageState>('usageState');

/**
 * A burst is one conditional GET of the index and one conditional PUT of the counters, and
 * its input comes from signals in history; counting is idempotent by job id, so running it
 * again after a crash mid-task counts nothing twice. It runs inside the workflow task.
 */
const { applyUsageBurst } = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: storageRetry });

/** An idle scope's usage workflow completes after this long; the next job's signal-with-start starts a new one. */
const IDLE_MS = 60 * 60_000;
const MAX_SESSIONS_PER_BURST = 500;
const MAX_HISTORY_EVENTS = 5_000;
const MAX_HISTORY_BYTES = 8 * 1024 * 1024;

/**
 * One per scope (id `usage/{scopeKey}`): the only writer of the scope's usage counters.
 * Learning jobs signal what their session loaded and how it ended (signal-with-start) and
 * never wait; every session pending at that moment is counted in one write (a burst), so
 * 200 sessions of one scope finishing at once contend on nothing but this workflow's
 * signal queue, and a job's cost in S3 requests does not grow with the scope's history.
 */
export async function scopeUsageWorkflow(input: ScopeUsageInput): Promise<void> {
  const { scopeKey } = input;
  const pending: SessionUsage[] = [...(input.pending ?? [])];
  const state: ScopeUsageState = { pending: 0, bursts: 0, counted: 0, lostSessions: input.lostSessions ?? 0 };
  setHandler(usageRecordedSignal, (...received) => void pending.push(...received));
  setHandler(scopeUsageStateQuery, () => ({ ...state, pending: pending.length }));

  while (!historyFull()) {
    if (!(await condition(() => pending.length > 0, IDLE_MS))) break;
    const burst = pending.splice(0, MAX_SESSIONS_PER_BURST);
    try {
      const { applied } = await applyUsageBurst({ scopeKey, sessions: burst, at: new Date().toISOString() });
      state.counted += applied;
    } catch (err) {
      state.lostSessions += burst.length;
      log.error('usage burst failed every attempt: its sessions are not counted', { scopeKey, sessions: burst.length, error: (err as Error).message });
    }
    state.bursts++;
  }
  await condition(allHandlersFinished);
  if (pending.length === 0 && !historyFull()) return;
  await continueAsNew<typeof scopeUsageWorkflow>({ scopeKey, pending: pending.splice(0), lostSessions: state.lostSessions });
}

function historyFull(): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > MAX_HISTORY_EVENTS || info.historySize > MAX_HISTORY_BYTES;
}
