import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
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
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const byClass: Record<string, number> = {};
  let total = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const method = req.method ?? 'GET';
    const cls = `${method} ${keyClassOf(method, req.url ?? '')}`;
    byClass[cls] = (byClass[cls] ?? 0) + 1;
    total++;
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    forward.on('error', (e) => {
      res.writeHead(502);
      res.end(String(e));
    });
    req.pipe(forward);
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
