import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The client deadline (EVOLUTION_CLIENT_CONNECT_TIMEOUT) as the S3 requests of a client call
 * see it. A client call (client/service-errors.ts `withinClientDeadline`, `atClientBoundary`;
 * the skill repository; the CLI's store-only commands) runs under one; each S3 request made
 * inside it is aborted once its share is spent, and fails as the one-line
 * ServiceUnavailableError naming S3 (`no answer before the deadline`), instead of waiting out
 * the SDK's socket timeout (30 s) and attempts (3): an S3 that accepts connections but does
 * not answer (hung, or stopped with SIGSTOP) answers a platform within the bound.
 * Outside a client call (workers: activities have their own timeouts and retries) nothing changes.
 */
export interface ClientDeadline {
  /** How long one S3 request (with the SDK's attempts) may take. */
  requestMs: number;
  /**
   * When the whole call ends (epoch ms), for a call bounded as a whole (its Temporal requests
   * share this deadline): a request gets no more than what is left. Unset for a call that
   * waits for a workflow, or scans a scope's history: each request is bounded instead.
   */
  endsAt?: number;
}

const current = new AsyncLocalStorage<ClientDeadline>();

/** Runs `fn` with its S3 requests under `deadline` (an inner call's deadline replaces an outer one). */
export function withStorageDeadline<R>(deadline: ClientDeadline, fn: () => R): R {
  return current.run(deadline, fn);
}

/** How long the next S3 request may take (0 or less: the call's deadline has passed); undefined outside a client call. */
export function storageRequestBudgetMs(now = Date.now()): number | undefined {
  const d = current.getStore();
  if (!d) return undefined;
  return d.endsAt === undefined ? d.requestMs : Math.min(d.requestMs, d.endsAt - now);
}

/**
 * `target` (a store, say) whose methods each run under a per-request client deadline of
 * `requestMs`: for a process that calls the store directly, as the CLI's store-only commands do.
 */
export function underClientDeadline<T extends object>(target: T, requestMs: number): T {
  return new Proxy(target, {
    get(t, key, receiver) {
      const value: unknown = Reflect.get(t, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => withStorageDeadline({ requestMs }, () => (value as (...a: unknown[]) => unknown).apply(t, args));
    },
  });
}
