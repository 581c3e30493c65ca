import { isGrpcServiceError, type Client } from '@temporalio/client';
import { serviceUnavailable, ServiceUnavailableError } from '../core/errors';
import type { EvolutionConfig } from '../core';
import { withStorageDeadline } from '../storage/client-deadline';
import { clientTimeoutMs } from './client-timeout';

export { clientTimeoutMs, DEFAULT_CLIENT_CONNECT_TIMEOUT_MS } from './client-timeout';

/** gRPC status codes of a Temporal server that did not answer (UNAVAILABLE, DEADLINE_EXCEEDED). */
const UNANSWERED = new Map([
  [14, 'UNAVAILABLE'],
  [4, 'no answer before the deadline'],
]);

function addressOf(client: Client): string {
  return (client.connection as { options?: { address?: string } }).options?.address ?? 'its configured address';
}

/**
 * The vocabulary's error for a failure that means "Temporal did not answer" (a gRPC
 * UNAVAILABLE or DEADLINE_EXCEEDED anywhere in the cause chain), or the ServiceUnavailableError
 * already in the chain (S3, from the store); undefined for anything else.
 */
export function unreachableServiceOf(error: unknown, client?: Client): ServiceUnavailableError | undefined {
  for (let e = error as { cause?: unknown } | undefined, depth = 0; e && depth < 6; e = e.cause as typeof e, depth++) {
    if (e instanceof ServiceUnavailableError) return e;
    if (client && isGrpcServiceError(e) && UNANSWERED.has(e.code)) return serviceUnavailable('temporal', addressOf(client), { detail: UNANSWERED.get(e.code), cause: error });
  }
  return undefined;
}

/** The Client a client call uses: its first argument, or that argument's `client`. */
function clientIn(first: unknown): { client?: Client; config?: EvolutionConfig } {
  if (!first || typeof first !== 'object') return {};
  if ('workflow' in first && 'connection' in first) return { client: first as Client };
  const deps = first as { client?: Client; config?: EvolutionConfig };
  return { client: deps.client, config: deps.config };
}

/**
 * Runs `call` under the client deadline (EVOLUTION_CLIENT_CONNECT_TIMEOUT): its Temporal and
 * S3 requests get the deadline, and a service that does not answer comes out as one
 * ServiceUnavailableError naming it. A call that waits for a workflow (`waits`) cannot carry
 * the deadline on its long polls: it first checks, within the deadline, that Temporal answers,
 * and each of its S3 requests (reads after the wait, polls of the scope index) gets the
 * deadline's length on its own.
 * The client package's calls, the CLI's commands and the console's requests all run through
 * this, so an application says what a platform is told, in the same words.
 */
export async function withinClientDeadline<R>(
  client: Client,
  config: Pick<EvolutionConfig, 'runtime'> | undefined,
  call: () => Promise<R>,
  opts: { waits?: boolean } = {},
): Promise<R> {
  try {
    const timeoutMs = clientTimeoutMs(config);
    const deadline = Date.now() + timeoutMs;
    if (!opts.waits) return await withStorageDeadline({ requestMs: timeoutMs, endsAt: deadline }, () => client.connection.withDeadline(deadline, call));
    await client.connection.withDeadline(deadline, () => client.workflowService.getSystemInfo({}));
    return await withStorageDeadline({ requestMs: timeoutMs }, call);
  } catch (e) {
    throw unreachableServiceOf(e, client) ?? e;
  }
}

/**
 * A client call at the platform boundary (docs/platform-contract.md, "Errors"): withinClientDeadline
 * around it. A call on the store alone (its first argument a SkillStore) bounds each S3 request
 * by the deadline: some scan a scope's history, whose length grows with the scope, not with S3's health.
 */
export function atClientBoundary<A extends unknown[], R>(call: (...args: A) => Promise<R>, opts: { waits?: boolean } = {}): (...args: A) => Promise<R> {
  return async (...args: A) => {
    const { client, config } = clientIn(args[0]);
    if (!client) {
      try {
        return await withStorageDeadline({ requestMs: clientTimeoutMs(config) }, () => call(...args));
      } catch (e) {
        throw unreachableServiceOf(e) ?? e;
      }
    }
    return withinClientDeadline(client, config, () => call(...args), opts);
  };
}
