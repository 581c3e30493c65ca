import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A counting HTTP proxy in front of the S3 server: every request is forwarded unchanged
 * (Host header included, so SigV4 signatures stay valid) and counted by method and key
 * class. Point a store or a worker's `s3.endpoint` at `endpoint` to measure what an
 * operation costs in S3 requests.
 */
export type KeyClass =
  'pointer' | 'revision' | 'locator' | 'audit' | 'index' | 'metrics' | 'payload' | 'cursor' | 'job-outcome' | 'usage' | 'rejections' | 'revoked-session' | 'list' | 'other';

export interface Counts {
  total: number;
  byClass: Record<string, number>;
}

/** One forwarded request: its class and when it was in flight (ms since the proxy started). */
export interface RequestSpan {
  cls: string;
  start: number;
  end: number;
}

export interface ProxyOptions {
  /** Held before each request is forwarded: a remote store's round trip on a local server. */
  delayMs?: number;
}

export function keyClassOf(method: string, url: string): KeyClass {
  const [path = '', query = ''] = url.split('?');
  if (method === 'GET' && /(^|&)list-type=2/.test(query)) return 'list';
  if (path.endsWith('/active.json')) return 'pointer';
  if (path.includes('/revisions-by-id/')) return 'locator';
  if (path.includes('/revisions/')) return 'revision';
  if (path.includes('/audit/')) return 'audit';
  if (path.endsWith('/index.json')) return 'index';
  if (path.endsWith('/metrics.json')) return 'metrics';
  if (path.includes('/console/revoked-sessions/')) return 'revoked-session';
  if (path.includes('/payloads/')) return 'payload';
  if (path.endsWith('/cursor.json')) return 'cursor';
  if (path.includes('/jobs/')) return 'job-outcome';
  if (path.endsWith('/usage/summary.json')) return 'usage';
  if (path.endsWith('/decisions/rejections.json')) return 'rejections';
  return 'other';
}

export interface CountingProxy {
  endpoint: string;
  /** Counts since start (or the last reset). */
  snapshot(): Counts;
  /** Requests between two snapshots. */
  diff(before: Counts, after?: Counts): Counts;
  /** The requests answered after `before` was taken, oldest first (each request's span is recorded when it is answered). */
  spansSince(before: Counts): RequestSpan[];
  close(): Promise<void>;
}

/**
 * Round trips one after the other: the periods in which at least one request was in flight.
 * Requests sent together are one round; with a delay longer than the work between requests,
 * this is the number of sequential round trips the operation waited for.
 */
export function roundsOf(spans: readonly RequestSpan[]): number {
  let rounds = 0;
  let busyUntil = -Infinity;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start > busyUntil) rounds++;
    busyUntil = Math.max(busyUntil, s.end);
  }
  return rounds;
}

/** Whether a request of class `a` and one of class `b` were in flight at the same time. */
export function overlapped(spans: readonly RequestSpan[], a: string, b: string): boolean {
  const of = (cls: string) => spans.filter((s) => s.cls === cls);
  return of(a).some((x) => of(b).some((y) => x !== y && x.start < y.end && y.start < x.end));
}

/** Forwards a request unchanged (Host header included, so SigV4 signatures stay valid) and pipes the answer back. */
export function forwardRequest(upstream: URL, req: IncomingMessage, res: ServerResponse): void {
  const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  forward.on('error', (e) => {
    res.writeHead(502);
    res.end(String(e));
  });
  req.pipe(forward);
}

export async function startCountingProxy(target: string, { delayMs = 0 }: ProxyOptions = {}): Promise<CountingProxy> {
  const upstream = new URL(target);
  const byClass: Record<string, number> = {};
  let total = 0;
  const spans: (RequestSpan & { n: number })[] = [];
  const started = performance.now();
  const server: Server = createServer((req: IncomingMessage, res) => {
    const method = req.method ?? 'GET';
    const cls = `${method} ${keyClassOf(method, req.url ?? '')}`;
    byClass[cls] = (byClass[cls] ?? 0) + 1;
    const n = ++total;
    const start = performance.now() - started;
    res.on('close', () => spans.push({ cls, start, end: performance.now() - started, n }));
    if (delayMs > 0) {
      req.pause(); // the body waits with the request; pipe() resumes it
      setTimeout(() => forwardRequest(upstream, req, res), delayMs);
    } else forwardRequest(upstream, req, res);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const snapshot = (): Counts => ({ total, byClass: { ...byClass } });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    snapshot,
    diff(before, after = snapshot()) {
      const out: Record<string, number> = {};
      for (const [k, v] of Object.entries(after.byClass)) if (v - (before.byClass[k] ?? 0) > 0) out[k] = v - (before.byClass[k] ?? 0);
      return { total: after.total - before.total, byClass: out };
    },
    spansSince(before) {
      return spans.filter((s) => s.n > before.total).map(({ cls, start, end }) => ({ cls, start, end }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
