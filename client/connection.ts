import { Client, Connection } from '@temporalio/client';
import type { EvolutionConfig } from '../core';
import { ensureReachable } from './reachability';

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

export async function connectTemporal(config: EvolutionConfig): Promise<Connected> {
  await ensureReachable(config, ['temporal']); // one clear line in 2 s, not the SDK's 10 s deadline
  const connection = await Connection.connect({ address: config.temporal.address });
  const client = new Client({ connection, namespace: config.temporal.namespace });
  return { client, close: () => connection.close() };
}
