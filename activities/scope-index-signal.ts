import { isGrpcServiceError, WithStartWorkflowOperation, type Client } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { SCOPE_INDEX_APPLY_UPDATE, SCOPE_INDEX_SIGNALS, SCOPE_INDEX_WORKFLOW, scopeIndexWorkflowId, type IndexChange } from '../core';
import { coalescedSignalWithStart } from './coalesce-per-key';

/**
 * Tells a scope's index workflow that a pointer moved (starting the workflow if needed).
 * Resolves true when the index already includes the change (the caller need not wait for
 * an IndexApplied signal), otherwise the change's `ackTo` gets that signal later.
 */
export type SignalIndex = (scopeKey: string, change: IndexChange) => Promise<boolean | void>;

/** Tells a scope's index workflow the version its rejections reached (starting the workflow if needed); resolves once the signal is on the server. */
export type SignalRejections = (scopeKey: string, version: number) => Promise<void>;

export function clientRejectionsSignaller(client: Client, taskQueue: string): SignalRejections {
  return coalescedSignalWithStart<number>(client, {
    taskQueue,
    workflowType: SCOPE_INDEX_WORKFLOW,
    signal: SCOPE_INDEX_SIGNALS.rejections,
    workflowId: scopeIndexWorkflowId,
    args: (scopeKey) => [{ scopeKey }],
  });
}

/** How long a publisher waits for its change to be materialized; after that the index follows and `ackTo` is signalled. */
const APPLY_WAIT_MS = 30_000;

/**
 * Signal-with-start of the scope's index workflow (coalescedSignalWithStart: one signal per
 * scope in flight from this process, the changes that arrive meanwhile go together in the
 * next one). Each call resolves once its change is on the server.
 */
export function clientIndexSignaller(client: Client, taskQueue: string): SignalIndex {
  return coalescedSignalWithStart<IndexChange>(client, {
    taskQueue,
    workflowType: SCOPE_INDEX_WORKFLOW,
    signal: SCOPE_INDEX_SIGNALS.change,
    workflowId: scopeIndexWorkflowId,
    args: (scopeKey) => [{ scopeKey }],
  });
}

/**
 * Update-with-start calls one worker process keeps in flight per scope. The server admits a
 * bounded number of in-flight updates per workflow (10 by default, `history.maxInFlightUpdates`)
 * and refuses the rest; an update here stays in flight until its burst is written, so a busy
 * scope's other publishers signal instead (and get their ack by signal).
 */
export const MAX_INDEX_UPDATES_IN_FLIGHT = 4;

/**
 * Update-with-start through `client`: answers once the index workflow has materialized the
 * change (at most APPLY_WAIT_MS), so the publishing workflow gets its read-your-writes ack
 * with the activity's result instead of a signal and a workflow task of its own. Past
 * MAX_INDEX_UPDATES_IN_FLIGHT for the scope, or when the server refuses or aborts the
 * update (too many in flight across workers; the workflow continuing as new), the change
 * goes by signal-with-start and the ack comes by signal.
 */
export function clientIndexUpdater(client: Client, taskQueue: string): SignalIndex {
  const signal = clientIndexSignaller(client, taskQueue);
  const inFlight = new Map<string, number>();
  return async (scopeKey, change) => {
    const busy = inFlight.get(scopeKey) ?? 0;
    // Nobody waits for a change without `ackTo`: a signal is all it needs.
    if (!change.ackTo || busy >= MAX_INDEX_UPDATES_IN_FLIGHT) {
      await signal(scopeKey, change);
      return false;
    }
    inFlight.set(scopeKey, busy + 1);
    let timer: NodeJS.Timeout | undefined;
    try {
      const applied = client.workflow.executeUpdateWithStart<Workflow, boolean, [IndexChange]>(SCOPE_INDEX_APPLY_UPDATE, {
        args: [change],
        startWorkflowOperation: new WithStartWorkflowOperation(SCOPE_INDEX_WORKFLOW, {
          workflowId: scopeIndexWorkflowId(scopeKey),
          taskQueue,
          args: [{ scopeKey }],
          workflowIdConflictPolicy: 'USE_EXISTING',
        }),
      });
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), APPLY_WAIT_MS)));
      // Not materialized in time: the change is queued in the workflow all the same; the ack comes by signal.
      if (await Promise.race([applied, late])) return true;
    } catch (error) {
      if (!isRefusedUpdate(error)) throw error;
    } finally {
      clearTimeout(timer);
      const left = (inFlight.get(scopeKey) ?? 1) - 1;
      if (left > 0) inFlight.set(scopeKey, left);
      else inFlight.delete(scopeKey);
    }
    await signal(scopeKey, change);
    return false;
  };
}

const GRPC_RESOURCE_EXHAUSTED = 8;
const GRPC_UNAVAILABLE = 14;

/** The server's "too many updates in flight" (RESOURCE_EXHAUSTED) or "update aborted" (UNAVAILABLE, e.g. continue-as-new). */
function isRefusedUpdate(error: unknown): boolean {
  return isGrpcServiceError(error) && (error.code === GRPC_RESOURCE_EXHAUSTED || error.code === GRPC_UNAVAILABLE);
}
