import { request } from 'node:http';

/** Cookies from Set-Cookie headers, as a Cookie header value (cleared ones left out). */
export function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c.endsWith('='))
    .join('; ');
}

/**
 * POSTs `totalBytes` in 64 KB chunks, as fast as the socket takes them, and stops sending
 * once an answer arrives: `sent` tells how much of the body had gone out by then, so a test
 * sees whether the server answered before reading it all. `chunked` leaves out
 * Content-Length (Transfer-Encoding: chunked), as a client hiding the size would.
 */
export function postLargeBody(
  url: string,
  totalBytes: number,
  opts: { chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<{ status: number; sent: number; body: string }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    let answered = false;
    const req = request(url, {
      method: 'POST',
      agent: false, // a connection of its own: the server may close it after an early answer
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(opts.chunked ? {} : { 'content-length': String(totalBytes) }), ...opts.headers },
    });
    req.on('response', (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      const done = () => {
        resolve({ status: res.statusCode ?? 0, sent: sentWhenAnswered, body });
        req.destroy();
      };
      res.on('end', done);
      res.on('error', done);
    });
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    const pump = () => {
      while (!answered && sent < totalBytes) {
        const part = chunk.subarray(0, Math.min(chunk.length, totalBytes - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

export interface RoundRobinProxy {
  url: string;
  /** Which backend answered each request, in order (index into the backends). */
  served: { backend: number; method: string; path: string; status: number }[];
  close(): Promise<void>;
}

/**
 * A load balancer in front of several HTTP servers that sends each request to the next one
 * in turn (no stickiness, a fresh backend connection per request): what makes a console
 * replica that keeps sessions in memory log users out at random.
 */
export async function startRoundRobinProxy(backends: () => readonly string[]): Promise<RoundRobinProxy> {
  const { createServer, request: send } = await import('node:http');
  const served: RoundRobinProxy['served'] = [];
  let next = 0;
  const server = createServer((req, res) => {
    const list = backends();
    const backend = next++ % list.length;
    const target = new URL(req.url ?? '/', list[backend]);
    const upstream = send(target, { method: req.method, headers: { ...req.headers, host: target.host }, agent: false }, (answer) => {
      served.push({ backend, method: req.method ?? 'GET', path: req.url ?? '/', status: answer.statusCode ?? 0 });
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (e) => {
      served.push({ backend, method: req.method ?? 'GET', path: req.url ?? '/', status: 502 });
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`backend ${backend} unreachable: ${e.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
