import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OpsServerOptions {
  port: number;
  host?: string;
  /** The SDK's Prometheus exporter, proxied at /metrics. */
  prometheusAddress?: string;
  /** True while the worker polls its task queue (readiness). */
  ready: () => boolean;
}

export interface RunningOpsServer {
  port: number;
  server: Server;
  close(): Promise<void>;
}

/**
 * One port for orchestrators and Prometheus (EVOLUTION_METRICS_PORT): /metrics (the SDK's
 * and the product's metrics), /healthz (the process is alive), /readyz (the worker is
 * polling: 503 while it starts or drains).
 */
export async function startOpsServer(opts: OpsServerOptions): Promise<RunningOpsServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://ops').pathname;
    const text = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'Content-Type': type });
      res.end(body);
    };
    if (path === '/healthz') return text(200, 'ok\n');
    if (path === '/readyz') return opts.ready() ? text(200, 'ready\n') : text(503, 'not ready\n');
    if (path === '/metrics') {
      if (!opts.prometheusAddress) return text(404, 'metrics are off\n');
      void fetch(`http://${opts.prometheusAddress}/metrics`).then(
        async (r) => text(r.status, await r.text(), r.headers.get('content-type') ?? 'text/plain; version=0.0.4'),
        (e: Error) => text(502, `metrics exporter unavailable: ${e.message}\n`),
      );
      return;
    }
    text(404, 'try /metrics, /healthz or /readyz\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', resolve);
  });
  return { port: (server.address() as AddressInfo).port, server, close: () => new Promise((r) => server.close(() => r())) };
}
