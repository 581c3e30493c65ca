import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { SCOPE_INDEX_APPLY_UPDATE, SCOPE_INDEX_SIGNALS, SCOPE_INDEX_WORKFLOW, scopeIndexWorkflowId, type IndexChange } from '../core';

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
 * Update-with-start through `client`: answers once the index workflow has materialized the
 * change (at most APPLY_WAIT_MS), so the publishing workflow gets its read-your-writes ack
 * with the activity's result instead of a signal and a workflow task of its own.
 */
export function clientIndexUpdater(client: Client, taskQueue: string): SignalIndex {
  return async (scopeKey, change) => {
    const applied = client.workflow.executeUpdateWithStart<Workflow, boolean, [IndexChange]>(SCOPE_INDEX_APPLY_UPDATE, {
      args: [change],
      startWorkflowOperation: new WithStartWorkflowOperation(SCOPE_INDEX_WORKFLOW, {
        workflowId: scopeIndexWorkflowId(scopeKey),
        taskQueue,
        args: [{ scopeKey }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), APPLY_WAIT_MS)));
    try {
      // Not materialized in time: the change is queued in the workflow all the same; the ack comes by signal.
      if (await Promise.race([applied, late])) return true;
      await clientIndexSignaller(client, taskQueue)(scopeKey, change);
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
}
