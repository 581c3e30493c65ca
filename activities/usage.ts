import type { Client } from '@temporalio/client';
import { SCOPE_USAGE_SIGNAL, SCOPE_USAGE_WORKFLOW, scopeUsageWorkflowId, type SessionUsage, type UsageTotals } from '../core';
import { coalescePerKey } from './coalesce-per-key';
import { withStoreErrors } from './errors';
import type { SkillStore } from '../storage';

/** Hands one job's usage to its scope's usage workflow; resolves once the server has it. */
export type RecordUsage = (scopeKey: string, usage: SessionUsage) => Promise<void>;

/** At most this many sessions travel in one signal (each is a few hundred bytes). */
export const MAX_USAGES_PER_SIGNAL = 100;
const SIGNAL_DEADLINE_MS = 30_000;

/**
 * Signal-with-start of the scope's usage workflow through `client`, one signal per scope in
 * flight from this process: the usages of jobs that finish meanwhile go together in the next
 * one, so 200 sessions of one scope finishing at once cost a few signals, not 200.
 */
export function clientUsageRecorder(client: Client, taskQueue: string): RecordUsage {
  return coalescePerKey<SessionUsage>(
    (scopeKey, usages) =>
      client.withDeadline(Date.now() + SIGNAL_DEADLINE_MS, () =>
        client.workflow.signalWithStart(SCOPE_USAGE_WORKFLOW, {
          workflowId: scopeUsageWorkflowId(scopeKey),
          taskQueue,
          args: [{ scopeKey }],
          signal: SCOPE_USAGE_SIGNAL,
          signalArgs: usages,
        }),
      ),
    MAX_USAGES_PER_SIGNAL,
  );
}

/** Activities of the scope usage workflow, the only writer of a scope's usage counters. */
export function usageActivities({ store }: { store: SkillStore }) {
  return {
    /** One burst of sessions: one index GET (conditional) and one conditional write of the counters. */
    async applyUsageBurst({
      scopeKey,
      sessions,
      at,
    }: {
      scopeKey: string;
      sessions: SessionUsage[];
      at: string;
    }): Promise<{ applied: number; generation: number; counted: UsageTotals }> {
      return withStoreErrors(() => store.applyUsageBurst(scopeKey, sessions, at));
    },
  };
}
