import { Client, Connection } from '@temporalio/client';
import type { EvolutionConfig } from '../core';

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

export async function connectTemporal(config: EvolutionConfig): Promise<Connected> {
  const connection = await Connection.connect({ address: config.temporal.address });
  const client = new Client({ connection, namespace: config.temporal.namespace });
  return { client, close: () => connection.close() };
}
