import { NativeConnection } from '@temporalio/worker';
import type { EvolutionConfig } from '../core';
import { explainConnectError } from '../runtime/connection';
import { temporalConnectionOptions } from '../runtime/temporal-profile';

/** The worker side of runtime/connection.ts: same profile, same TLS, same clear errors. */
export async function connectWorkerTemporal(config: EvolutionConfig): Promise<NativeConnection> {
  try {
    return await NativeConnection.connect(temporalConnectionOptions(config));
  } catch (e) {
    throw await explainConnectError(e, config);
  }
}
