import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createObjectStore, createS3Client, S3ResponseError, type S3Settings } from '../../storage';
import { freeLocalPort } from '../../workers/telemetry/runtime';
import { realServices, uniqueName } from '../support/infra';

let s3: S3Settings;
beforeAll(async () => {
  s3 = (await realServices(['s3'])).s3;
});

/**
 * A proxy in front of the real S3 server that answers the next `failures` requests itself
 * with `status` (S3's SlowDown body for a 503) and forwards the rest unchanged.
 */
async function faultyProxy(
  target: string,
  listenOn = '127.0.0.1',
): Promise<{ endpoint: string; failNext(n: number, status: number, code?: string): void; requests(): number; close(): Promise<void> }> {
  const upstream = new URL(target);
  let failures = 0;
  let status = 503;
  let code = 'SlowDown';
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    if (failures > 0) {
      failures--;
      req.resume();
      res.writeHead(status, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>Please reduce your request rate.</Message></Error>`);
      return;
    }
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, listenOn, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: listenOn.includes(':') ? `http://[${listenOn}]:${port}` : `http://${listenOn}:${port}`,
    failNext(n, s, c = 'SlowDown') {
      failures = n;
      status = s;
      code = c;
    },
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('S3 client (signed requests against the real S3 server)', () => {
  let proxy: Awaited<ReturnType<typeof faultyProxy>>;
  beforeAll(async () => {
    proxy = await faultyProxy(s3.endpoint);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('writes, reads back, conditions and deletes an object whose key needs encoding', async () => {
    const client = createS3Client(s3);
    const key = `s3-client/${uniqueName('k')}/a b+c&d=é!(x).json`;
    const put = await client.send({ method: 'PUT', bucket: s3.bucket, key, headers: { 'if-none-match': '*', 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(put.headers.etag).toMatch(/^"?[0-9a-f-]+"?$/);
    const got = await client.send({ method: 'GET', bucket: s3.bucket, key });
    expect(got.body.toString()).toBe('{"a":1}');
    const unchanged = await client.send({ method: 'GET', bucket: s3.bucket, key, headers: { 'if-none-match': put.headers.etag as string } });
    expect(unchanged.status).toBe(304);
    const again = await client.send({ method: 'PUT', bucket: s3.bucket, key, headers: { 'if-none-match': '*' }, body: 'x' }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(S3ResponseError);
    expect(again).toMatchObject({ status: 412 });
    const listed = await client.send({ method: 'GET', bucket: s3.bucket, query: { 'list-type': '2', prefix: key } });
    expect(listed.body.toString()).toContain('<Key>');
    await client.send({ method: 'DELETE', bucket: s3.bucket, key });
    await expect(client.send({ method: 'HEAD', bucket: s3.bucket, key })).rejects.toMatchObject({ status: 404, code: 'NotFound' });
    client.destroy();
  });

  it('a refused signature is an S3ResponseError naming the request, the status and S3 code', async () => {
    const client = createS3Client({ ...s3, secretAccessKey: `${s3.secretAccessKey}-wrong` });
    const error = await client.send({ method: 'GET', bucket: s3.bucket, key: 'any/key.json' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3ResponseError);
    expect((error as S3ResponseError).status).toBe(403);
    expect((error as Error).message).toMatch(new RegExp(`^S3 GET ${s3.bucket}/any/key\\.json: HTTP 403 \\w+`));
    client.destroy();
  });

  it('rides out two 503 SlowDown answers; a third fails with S3 code and message', async () => {
    const client = createS3Client({ ...s3, endpoint: proxy.endpoint });
    const key = `s3-client/${uniqueName('retry')}.txt`;
    proxy.failNext(2, 503);
    const before = proxy.requests();
    await client.send({ method: 'PUT', bucket: s3.bucket, key, body: 'ok' });
    expect(proxy.requests() - before).toBe(3);

    proxy.failNext(3, 503);
    const error = await client.send({ method: 'GET', bucket: s3.bucket, key }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3ResponseError);
    expect((error as Error).message).toBe(`S3 GET ${s3.bucket}/${key}: HTTP 503 SlowDown: Please reduce your request rate.`);
    expect((await client.send({ method: 'GET', bucket: s3.bucket, key })).body.toString()).toBe('ok');
    client.destroy();
  });

  it("retries S3's own 400 RequestTimeout, as a transient answer", async () => {
    const client = createS3Client({ ...s3, endpoint: proxy.endpoint });
    const key = `s3-client/${uniqueName('timeout')}.txt`;
    proxy.failNext(1, 400, 'RequestTimeout');
    const before = proxy.requests();
    await client.send({ method: 'PUT', bucket: s3.bucket, key, body: 'ok' });
    expect(proxy.requests() - before).toBe(2);
    client.destroy();
  });

  it('does not retry an answer no retry can change', async () => {
    const client = createS3Client({ ...s3, endpoint: proxy.endpoint });
    proxy.failNext(1, 400, 'InvalidArgument');
    const before = proxy.requests();
    await expect(client.send({ method: 'GET', bucket: s3.bucket, key: 'x' })).rejects.toMatchObject({ status: 400 });
    expect(proxy.requests() - before).toBe(1);
    client.destroy();
  });

  it('a read from a missing bucket is an error, never an empty store', async () => {
    const client = createS3Client(s3);
    const objects = createObjectStore(client, uniqueName('no-such-bucket'));
    await expect(objects.getText('k')).rejects.toMatchObject({ status: 404, code: 'NoSuchBucket' });
    client.destroy();
  });

  it('an IPv6 endpoint, and virtual-hosted style on an IP endpoint (which falls back to path-style)', async () => {
    const v6 = await faultyProxy(s3.endpoint, '::1');
    try {
      for (const settings of [
        { ...s3, endpoint: v6.endpoint },
        { ...s3, forcePathStyle: false },
      ]) {
        const objects = createObjectStore(createS3Client(settings), s3.bucket);
        const key = `s3-client/${uniqueName('addr')}.txt`;
        await objects.putCreateOnly(key, 'here');
        expect(await objects.getText(key)).toMatchObject({ value: 'here' });
      }
    } finally {
      await v6.close();
    }
  });

  it('an endpoint nobody listens on fails with the network error, after the retries', async () => {
    const client = createS3Client({ ...s3, endpoint: `http://127.0.0.1:${await freeLocalPort()}` });
    await expect(client.send({ method: 'GET', bucket: s3.bucket, key: 'x' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    client.destroy();
  });
});
