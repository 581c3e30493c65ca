import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { evolutionDataConverter } from '../client/codec/data-converter';
import { temporalConnectionOptions } from '../client/temporal-profile';
import { SCOPE_INDEX_APPLY_UPDATE, SCOPE_INDEX_SIGNALS, SCOPE_INDEX_WORKFLOW, scopeIndexWorkflowId, type EvolutionConfig, type IndexChange } from '../core';

/**
 * Tells a scope's index workflow that a pointer moved (starting the workflow if needed).
 * Resolves true when the index already includes the change (the caller need not wait for
 * an IndexApplied signal), otherwise the change's `ackTo` gets that signal later.
 */
export type SignalIndex = (scopeKey: string, change: IndexChange) => Promise<boolean | void>;

/** How long a publisher waits for its change to be materialized; after that the index follows and `ackTo` is signalled. */
const APPLY_WAIT_MS = 30_000;

/** Signal-with-start through `client` (the worker's server and namespace), on the worker's task queue. */
export function clientIndexSignaller(client: Client | (() => Promise<Client>), taskQueue: string): SignalIndex {
  return async (scopeKey, change) => {
    const c = typeof client === 'function' ? await client() : client;
    await c.workflow.signalWithStart(SCOPE_INDEX_WORKFLOW, {
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
export function clientIndexUpdater(client: Client | (() => Promise<Client>), taskQueue: string): SignalIndex {
  return async (scopeKey, change) => {
    const c = typeof client === 'function' ? await client() : client;
    const applied = c.workflow.executeUpdateWithStart<Workflow, boolean, [IndexChange]>(SCOPE_INDEX_APPLY_UPDATE, {
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
      await clientIndexSignaller(c, taskQueue)(scopeKey, change);
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Update-with-start over one lazily opened client connection per worker. */
export function temporalIndexSignaller(config: EvolutionConfig): SignalIndex & { close(): Promise<void> } {
  let connecting: Promise<{ client: Client; connection: Connection }> | undefined;
  const connect = () =>
    // The worker's own connection settings (TLS, API key) and payload codec: the index's
    // update answers are encrypted like every other payload, and its changes carry skill text.
    (connecting ??= Connection.connect(temporalConnectionOptions(config)).then((connection) => ({
      connection,
      client: new Client({ connection, namespace: config.temporal.namespace, dataConverter: evolutionDataConverter(config) }),
    })));
  const signal = clientIndexUpdater(async () => (await connect()).client, config.temporal.taskQueue);
  return Object.assign(signal, {
    async close() {
      if (connecting) await (await connecting).connection.close();
    },
  });
}
