import { Socket } from 'node:net';
import { s3EndpointOf, type EvolutionConfig } from '../core';
import { NETWORK_ERROR_CODES } from '../storage/network-errors';
import { serviceUnavailable, ServiceUnavailableError, type ServiceKind } from '../core/errors';

export type { ServiceKind };

/** Where each service runs, by the configuration. */
const ADDRESSES: Record<ServiceKind, (config: EvolutionConfig) => string> = {
  temporal: (c) => c.temporal.address,
  s3: (c) => s3EndpointOf(c.s3),
  model: (c) => c.llm.baseURL,
};

const PROBE_TIMEOUT_MS = 2_000;

function unavailable(kind: ServiceKind, config: EvolutionConfig, detail: string, cause?: unknown): ServiceUnavailableError {
  return serviceUnavailable(kind, ADDRESSES[kind](config), { detail, cause, ...(NETWORK_ERROR_CODES.has(detail) ? { code: detail } : {}) });
}

/** host and port of `host:port` or of a URL. */
export function hostPortOf(address: string): { host: string; port: number } {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(address)) {
    const u = new URL(address);
    return { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80 };
  }
  const i = address.lastIndexOf(':');
  return { host: address.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(address.slice(i + 1)) };
}

function tcpProbe(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs / 1000} s`));
    socket.once('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
    socket.connect(port, host, () => done(undefined));
  });
}

/**
 * Fails fast, in one line, when a service this entry point needs cannot be reached:
 * a TCP connect to each (in parallel, at most 2 s), instead of the SDKs' own retries
 * (a Temporal connection gives up only after 10 s).
 */
export async function ensureReachable(config: EvolutionConfig, kinds: ServiceKind[], timeoutMs = PROBE_TIMEOUT_MS): Promise<void> {
  const problems = await Promise.all(
    kinds.map(async (kind) => {
      const { host, port } = hostPortOf(ADDRESSES[kind](config));
      const problem = await tcpProbe(host, port, timeoutMs);
      return problem ? unavailable(kind, config, problem) : undefined;
    }),
  );
  const first = problems.find((p) => p !== undefined);
  if (first) throw first;
}

/**
 * The one-line explanation for a raw network error (e.g. `connect ECONNREFUSED
 * 127.0.0.1:8333` from an SDK) when it concerns one of the configured services.
 */
export function explainUnreachable(error: unknown, config: EvolutionConfig): ServiceUnavailableError | undefined {
  for (
    let e = error as (NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string; cause?: unknown }) | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e instanceof ServiceUnavailableError) return e;
    if (!e.code || !NETWORK_ERROR_CODES.has(e.code)) continue;
    for (const kind of Object.keys(ADDRESSES) as ServiceKind[]) {
      const { host, port } = hostPortOf(ADDRESSES[kind](config));
      const sameHost = !e.address || e.address === host || (host === 'localhost' && ['127.0.0.1', '::1'].includes(e.address)) || e.hostname === host;
      if (e.port === port && sameHost) return unavailable(kind, config, e.code, error);
    }
  }
  return undefined;
}
