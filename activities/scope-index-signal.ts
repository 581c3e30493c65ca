import { Client, Connection } from '@temporalio/client';
import { SCOPE_INDEX_SIGNALS, SCOPE_INDEX_WORKFLOW, scopeIndexWorkflowId, type EvolutionConfig, type IndexChange } from '../core';

/** Tells a scope's index workflow that a pointer moved (starting the workflow if needed). */
export type SignalIndex = (scopeKey: string, change: IndexChange) => Promise<void>;

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

/** Signal-with-start over one lazily opened client connection per worker. */
export function temporalIndexSignaller(config: EvolutionConfig): SignalIndex & { close(): Promise<void> } {
  let connecting: Promise<{ client: Client; connection: Connection }> | undefined;
  const connect = () =>
    (connecting ??= Connection.connect({ address: config.temporal.address }).then((connection) => ({
      connection,
      client: new Client({ connection, namespace: config.temporal.namespace }),
    })));
  const signal = clientIndexSignaller(async () => (await connect()).client, config.temporal.taskQueue);
  return Object.assign(signal, {
    async close() {
      if (connecting) await (await connecting).connection.close();
    },
  });
}
