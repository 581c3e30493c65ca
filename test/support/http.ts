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
