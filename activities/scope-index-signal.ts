import { isGrpcServiceError, WithStartWorkflowOperation, type Client } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { SCOPE_INDEX_APPLY_BATCH_UPDATE, SCOPE_INDEX_SIGNALS, SCOPE_INDEX_WORKFLOW, scopeIndexWorkflowId, type IndexChange } from '../core';

/**
 * Tells a scope's index workflow that a pointer moved (starting the workflow if needed).
 * Resolves true when the index already includes the change (the caller need not wait for
 * an IndexApplied signal), otherwise the change's `ackTo` gets that signal later.
 */
export type SignalIndex = (scopeKey: string, change: IndexChange) => Promise<boolean | void>;

/** How long a publisher waits for its change to be materialized; after that the index follows and `ackTo` is signalled. */
const APPLY_WAIT_MS = 30_000;

/** Signal-with-start through `client` (the worker's server and namespace), on the worker's task queue. */
export function clientIndexSignaller(client: Client, taskQueue: string): SignalIndex {
  return async (scopeKey, change) => {
    await client.workflow.signalWithStart(SCOPE_INDEX_WORKFLOW, {
      workflowId: scopeIndexWorkflowId(scopeKey),
      taskQueue,
      args: [{ scopeKey }],
      signal: SCOPE_INDEX_SIGNALS.change,
      signalArgs: [change],
    });
  };
}

/**
 * Update-with-start calls one worker process keeps in flight per scope. The server admits a
 * bounded number of in-flight updates per workflow (10 by default, `history.maxInFlightUpdates`)
 * and refuses the rest, and an update here stays in flight until its burst is written: the
 * changes of publishers arriving meanwhile wait and go together in the next update.
 */
export const MAX_INDEX_UPDATES_IN_FLIGHT = 2;
/** Changes in one update at most (each is a few hundred bytes of history). */
const MAX_CHANGES_PER_UPDATE = 100;

interface Pending {
  change: IndexChange;
  resolve(applied: boolean): void;
  reject(error: unknown): void;
}

/**
 * Update-with-start through `client`, as a group commit per scope: the first changes go at
 * once, those that arrive while MAX_INDEX_UPDATES_IN_FLIGHT updates are in flight go
 * together in the next one. Each caller hears back once the index workflow has
 * materialized its change (at most APPLY_WAIT_MS), so the publishing workflow gets its
 * read-your-writes ack with the activity's result instead of a signal and a workflow task
 * of its own. When the answer is late, or the server refuses or aborts the update (too
 * many in flight across workers; the workflow continuing as new), the changes go by
 * signal-with-start and their acks come by signal.
 */
export function clientIndexUpdater(client: Client, taskQueue: string): SignalIndex {
  const signal = clientIndexSignaller(client, taskQueue);
  const scopes = new Map<string, { queued: Pending[]; inFlight: number }>();

  async function send(scopeKey: string, batch: Pending[]): Promise<void> {
    let applied = false;
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = client.workflow.executeUpdateWithStart<Workflow, boolean, [IndexChange[]]>(SCOPE_INDEX_APPLY_BATCH_UPDATE, {
        args: [batch.map((p) => p.change)],
        startWorkflowOperation: new WithStartWorkflowOperation(SCOPE_INDEX_WORKFLOW, {
          workflowId: scopeIndexWorkflowId(scopeKey),
          taskQueue,
          args: [{ scopeKey }],
          workflowIdConflictPolicy: 'USE_EXISTING',
        }),
      });
      // Not materialized in time: the changes are queued in the workflow all the same; the acks come by signal.
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), APPLY_WAIT_MS)));
      applied = await Promise.race([answer, late]);
    } catch (error) {
      if (!isRefusedUpdate(error)) {
        for (const p of batch) p.reject(error);
        return;
      }
    } finally {
      clearTimeout(timer);
    }
    if (applied) {
      for (const p of batch) p.resolve(true);
      return;
    }
    await Promise.all(
      batch.map(async (p) => {
        try {
          await signal(scopeKey, p.change);
          p.resolve(false);
        } catch (error) {
          p.reject(error);
        }
      }),
    );
  }

  function pump(scopeKey: string): void {
    const scope = scopes.get(scopeKey);
    if (!scope) return;
    while (scope.inFlight < MAX_INDEX_UPDATES_IN_FLIGHT && scope.queued.length > 0) {
      const batch = scope.queued.splice(0, MAX_CHANGES_PER_UPDATE);
      scope.inFlight++;
      void send(scopeKey, batch).finally(() => {
        scope.inFlight--;
        if (scope.inFlight === 0 && scope.queued.length === 0) scopes.delete(scopeKey);
        else pump(scopeKey);
      });
    }
  }

  return (scopeKey, change) =>
    new Promise<boolean>((resolve, reject) => {
      const scope = scopes.get(scopeKey) ?? { queued: [], inFlight: 0 };
      scopes.set(scopeKey, scope);
      scope.queued.push({ change, resolve, reject });
      pump(scopeKey);
    });
}

const GRPC_RESOURCE_EXHAUSTED = 8;
const GRPC_UNAVAILABLE = 14;

/** The server's "too many updates in flight" (RESOURCE_EXHAUSTED) or "update aborted" (UNAVAILABLE, e.g. continue-as-new). */
function isRefusedUpdate(error: unknown): boolean {
  return isGrpcServiceError(error) && (error.code === GRPC_RESOURCE_EXHAUSTED || error.code === GRPC_UNAVAILABLE);
}
