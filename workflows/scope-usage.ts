import { allHandlersFinished, condition, continueAsNew, log, proxyActivities, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { USAGE_BURST_INTERVAL_MS } from '../core/usage/names';
import { scopeRecordedSignal, scopeUsageStateQuery, usageRecordedSignal, type ScopeUsageState } from '../core/workflow-api/scope-usage';
import type { SessionUsage } from '../core/usage/attribution';
import type { ScopeRecord } from '../core/usage/records';
import { conditionOrAlarm, deadlineWaiter } from './alarm';
import { retiredPatch } from './retired-patch';
import { decidedWorkOptions, usageBurstLocalRetry } from './retry-policies';

export interface ScopeUsageInput {
  scopeKey: string;
  /** Sessions received and not yet counted, carried over a continue-as-new. */
  pending?: SessionUsage[];
  /** Records received and not yet counted, carried over a continue-as-new. */
  records?: ScopeRecord[];
  lostSessions?: number;
  /** How long a burst waits out a storage outage (EVOLUTION_STORAGE_OUTAGE_TOLERANCE of the worker that started this run). */
  storageOutageToleranceMs?: number;
  /**
   * The least time between two bursts while records keep arriving (USAGE_BURST_INTERVAL_MS from
   * the worker that started the run, carried over a continue-as-new). Absent, as in runs started
   * before it: a burst whenever records are pending.
   */
  burstIntervalMs?: number;
}

/**
 * A burst counts records (sessions, governance counts, audit entries) and waits out storage
 * outages: three attempts inside the workflow task, then a task-queue activity retried with
 * capped backoff for the storage outage tolerance, so nothing counted is dropped because S3
 * was down for minutes. (Patch `usage-bursts-wait-out-outages`, retired.)
 * A burst is a conditional write of the summary (and, for sessions that were not reviewed,
 * a conditional GET of the index); its input comes from signals in history; counting is
 * idempotent by record id, so running it again after a crash counts nothing twice.
 */
const BURSTS_WAIT_OUT_OUTAGES = 'usage-bursts-wait-out-outages';
const boundedLocalBursts = proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: usageBurstLocalRetry });

/** An idle scope's usage workflow completes after this long; the next job's signal-with-start starts a new one. */
const IDLE_MS = 60 * 60_000;
/** Retired: the idle wait is an alarm (workflows/alarm.ts), not a timer cancelled at each burst. */
const USAGE_IDLE_ALARM_PATCH = 'usage-idle-alarm';
const MAX_RECORDS_PER_BURST = 500;
const MAX_HISTORY_EVENTS = 5_000;
const MAX_HISTORY_BYTES = 8 * 1024 * 1024;

/**
 * One per scope (id `usage/{scopeKey}`): the only writer of the scope's usage summary —
 * usage counters, governance counters, the recent audit page. Activities signal what they
 * recorded (signal-with-start) and never wait; everything pending at that moment is counted
 * in one write (a burst), at most one per `burstIntervalMs` while records keep coming, so 200 sessions of one scope finishing at once contend on nothing
 * but this workflow's signal queue, and a job's cost in S3 requests, like a reader's, does
 * not grow with the scope's history.
 */
export async function scopeUsageWorkflow(input: ScopeUsageInput): Promise<void> {
  const { scopeKey, storageOutageToleranceMs, burstIntervalMs } = input;
  const pending: SessionUsage[] = [...(input.pending ?? [])];
  const records: ScopeRecord[] = [...(input.records ?? [])];
  const state: ScopeUsageState = { pending: 0, bursts: 0, counted: 0, lostSessions: input.lostSessions ?? 0 };
  setHandler(usageRecordedSignal, (...received) => void pending.push(...received));
  setHandler(scopeRecordedSignal, (...batches) => void records.push(...batches.flat()));
  setHandler(scopeUsageStateQuery, () => ({ ...state, pending: pending.length + records.length }));
  const remoteBursts = proxyActivities<Activities>(decidedWorkOptions(storageOutageToleranceMs));

  const hasWork = () => pending.length > 0 || records.length > 0;
  const burstFull = () => pending.length + records.length >= MAX_RECORDS_PER_BURST;
  retiredPatch(USAGE_IDLE_ALARM_PATCH);
  const idleWait = deadlineWaiter();
  let idleSince = new Date().getTime();
  let lastBurstAt = Number.NEGATIVE_INFINITY;
  while (!historyFull()) {
    if (!hasWork()) await idleWait(hasWork, idleSince + IDLE_MS);
    if (!hasWork()) {
      if (new Date().getTime() - idleSince >= IDLE_MS) break;
      continue;
    }
    // A busy scope's records wait for the interval to pass (or a full burst), on a timer never cancelled.
    const wait = burstIntervalMs ? lastBurstAt + burstIntervalMs - new Date().getTime() : 0;
    if (wait > 0 && !burstFull()) await conditionOrAlarm(burstFull, wait);
    lastBurstAt = new Date().getTime();
    retiredPatch(BURSTS_WAIT_OUT_OUTAGES);
    const sessions: ScopeRecord[] = pending.splice(0, MAX_RECORDS_PER_BURST).map((usage) => ({ kind: 'session', usage }));
    const burst = { scopeKey, records: [...sessions, ...records.splice(0, MAX_RECORDS_PER_BURST - sessions.length)], at: new Date().toISOString() };
    try {
      state.counted += (await boundedLocalBursts.applyScopeRecordsBurst(burst).catch(() => remoteBursts.applyScopeRecordsBurst(burst))).applied;
    } catch (err) {
      // A refusal no retry fixes (a corrupt summary), or an outage longer than the tolerance.
      state.lostSessions += sessions.length;
      log.error('usage burst failed for good: its records are not counted', { scopeKey, records: burst.records.length, error: (err as Error).message });
    }
    state.bursts++;
    idleSince = new Date().getTime();
  }
  await condition(allHandlersFinished);
  if (pending.length === 0 && records.length === 0 && !historyFull()) return;
  await continueAsNew<typeof scopeUsageWorkflow>({
    scopeKey,
    pending: pending.splice(0),
    records: records.splice(0),
    lostSessions: state.lostSessions,
    // A run started before the interval existed spaces its bursts from the next run on.
    burstIntervalMs: burstIntervalMs ?? USAGE_BURST_INTERVAL_MS,
    ...(storageOutageToleranceMs !== undefined ? { storageOutageToleranceMs } : {}),
  });
}

function historyFull(): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > MAX_HISTORY_EVENTS || info.historySize > MAX_HISTORY_BYTES;
}
