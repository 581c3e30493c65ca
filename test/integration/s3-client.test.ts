import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createObjectStore, createS3Client, mapLimit, S3ResponseError, type S3Settings } from '../../storage';
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

describe('S3 client (@aws-sdk/client-s3 against the real S3 server)', () => {
  let proxy: Awaited<ReturnType<typeof faultyProxy>>;
  beforeAll(async () => {
    proxy = await faultyProxy(s3.endpoint!);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('writes, reads back, conditions and deletes an object whose key needs encoding', async () => {
    const client = createS3Client(s3);
    const key = `s3-client/${uniqueName('k')}/a b+c&d=é!(x)*'~.json`;
    const put = await client.putObject(s3.bucket, key, '{"a":1}', { contentType: 'application/json', ifNoneMatch: '*' });
    expect(put.etag).toMatch(/^"?[0-9a-f-]+"?$/);
    const got = await client.getObject(s3.bucket, key);
    expect(got.notModified ? undefined : Buffer.from(got.body).toString()).toBe('{"a":1}');
    expect(await client.getObject(s3.bucket, key, put.etag)).toEqual({ notModified: true });
    const again = await client.putObject(s3.bucket, key, 'x', { contentType: 'text/plain', ifNoneMatch: '*' }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(S3ResponseError);
    expect(again).toMatchObject({ status: 412 });
    const stale = await client.putObject(s3.bucket, key, 'x', { contentType: 'text/plain', ifMatch: '"0123456789abcdef0123456789abcdef"' }).catch((e: unknown) => e);
    expect(stale).toMatchObject({ status: 412 });
    const replaced = await client.putObject(s3.bucket, key, '{"a":2}', { contentType: 'application/json', ifMatch: put.etag });
    expect(replaced.etag).not.toBe(put.etag);
    expect((await client.listObjects(s3.bucket, key)).keys).toEqual([key]);
    await client.headObject(s3.bucket, key);
    await client.deleteObject(s3.bucket, key);
    await expect(client.headObject(s3.bucket, key)).rejects.toMatchObject({ status: 404, code: 'NotFound' });
    await expect(client.getObject(s3.bucket, key)).rejects.toMatchObject({ status: 404, code: 'NoSuchKey' });
    client.destroy();
  });

  it("resolves each command's middleware stack once per client, not on every request (the SDK's cacheMiddleware)", async () => {
    // The SDK uses its handler cache only for a send without options; a send with any (even
    // `{}`) rebuilds the stack, every plugin of the command, and drops the cache.
    const resolvedGets = vi.spyOn(GetObjectCommand.prototype, 'resolveMiddleware');
    const resolvedPuts = vi.spyOn(PutObjectCommand.prototype, 'resolveMiddleware');
    try {
      const client = createS3Client(s3);
      const key = `s3-client/${uniqueName('cache')}.json`;
      for (let i = 0; i < 3; i++) await client.putObject(s3.bucket, `${key}-${i}`, '{}', { contentType: 'application/json' });
      for (let i = 0; i < 3; i++) await client.getObject(s3.bucket, `${key}-${i}`);
      expect(resolvedPuts).toHaveBeenCalledTimes(1);
      expect(resolvedGets).toHaveBeenCalledTimes(1);
      client.destroy();
    } finally {
      resolvedGets.mockRestore();
      resolvedPuts.mockRestore();
    }
  });

  it('a listing longer than one page (1,000 keys) is read to its end, keys and common prefixes alike', async () => {
    const objects = createObjectStore(createS3Client(s3), s3.bucket);
    const prefix = `s3-client/${uniqueName('pages')}/`;
    const keys = Array.from({ length: 1_005 }, (_, i) => `${prefix}${i < 5 ? `dir-${i}/x` : `k-${String(i).padStart(4, '0')}`}`);
    await mapLimit(keys, 32, (key) => objects.put(key, '.'));
    const listed = await objects.list(prefix);
    expect(listed).toEqual([...keys].sort());
    const children = await objects.listChildren(prefix);
    expect(children).toHaveLength(1_005);
    expect(children.slice(0, 5)).toEqual(['dir-0', 'dir-1', 'dir-2', 'dir-3', 'dir-4']);
  });

  it('a refused key is an S3ResponseError, one line naming the credential source, the request and S3 code', async () => {
    const client = createS3Client({ ...s3, secretAccessKey: `${s3.secretAccessKey}-wrong` });
    const error = await client.getObject(s3.bucket, 'any/key.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3ResponseError);
    expect((error as S3ResponseError).status).toBe(403);
    expect((error as Error).message).toMatch(
      new RegExp(`^S3 refused the credentials from S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY \\(SignatureDoesNotMatch\\) at GET ${s3.bucket}/any/key\\.json: \\S`),
    );
    expect((error as Error).message).not.toContain('\n');
    client.destroy();
  });

  it('rides out two 503 SlowDown answers; a third fails with S3 code and message', async () => {
    const client = createS3Client({ ...s3, endpoint: proxy.endpoint });
    const key = `s3-client/${uniqueName('retry')}.txt`;
    proxy.failNext(2, 503);
    const before = proxy.requests();
    await client.putObject(s3.bucket, key, 'ok', { contentType: 'text/plain' });
    expect(proxy.requests() - before).toBe(3);

    proxy.failNext(3, 503);
    const error = await client.getObject(s3.bucket, key).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3ResponseError);
    expect((error as Error).message).toBe(`S3 GET ${s3.bucket}/${key}: HTTP 503 SlowDown: Please reduce your request rate.`);
    const got = await client.getObject(s3.bucket, key);
    expect(got.notModified ? undefined : Buffer.from(got.body).toString()).toBe('ok');
    client.destroy();
  });

  it("retries S3's own 400 RequestTimeout, as a transient answer", async () => {
    const client = createS3Client({ ...s3, endpoint: proxy.endpoint });
    const key = `s3-client/${uniqueName('timeout')}.txt`;
    proxy.failNext(1, 400, 'RequestTimeout');
    const before = proxy.requests();
    await client.putObject(s3.bucket, key, 'ok', { contentType: 'text/plain' });
    expect(proxy.requests() - before).toBe(2);
    client.destroy();
  });

  it('does not retry an answer no retry can change', async () => {
    const client = createS3Client({ ...s3, endpoint: proxy.endpoint });
    proxy.failNext(1, 400, 'InvalidArgument');
    const before = proxy.requests();
    await expect(client.getObject(s3.bucket, 'x')).rejects.toMatchObject({ status: 400, code: 'InvalidArgument' });
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
    const v6 = await faultyProxy(s3.endpoint!, '::1');
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
    await expect(client.getObject(s3.bucket, 'x')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    client.destroy();
  });
});
