/**
 * The S3 client's CPU per request, in this process, against the local S3 server: the store's
 * client (storage/s3-client.ts: @aws-sdk/client-s3, tuned) next to the same SDK with its
 * defaults (static keys, endpoint and path-style only) and a bare keep-alive `node:http`
 * request to the same object (unsigned: the server refuses it with a short error body), the
 * floor of any client. Interleaved rounds, each kind in turn; CONCURRENCY requests at a time.
 *
 * Requests: GET of a 1.5 KB JSON object (what most of a job's reads are), GET answered 304
 * (an agent's refresh), PUT create-only of a new 1.5 KB object (a job's writes).
 *
 * Env: BENCH_REQUESTS (per kind, operation and round; default 2000), BENCH_ROUNDS (default 3),
 * BENCH_CONCURRENCY (default 10).
 */
import { Agent, request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, S3Client as SdkS3Client } from '@aws-sdk/client-s3';
import { loadConfig } from '../runtime/config';
import { createS3Client } from '../storage/s3-client';
import { median, spread } from './support/stats';
import type { BenchContext, BenchFigures } from './support/types';

type Kind = 'store client' | 'SDK defaults' | 'bare http';
type Op = 'GET' | 'GET 304' | 'PUT create-only';
const KINDS: Kind[] = ['bare http', 'SDK defaults', 'store client'];
const OPS: Op[] = ['GET', 'GET 304', 'PUT create-only'];

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
  const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
  const s3 = loadConfig().s3;
  if (!s3.endpoint || !s3.accessKeyId || !s3.secretAccessKey) throw new Error('s3-client bench: needs the local S3 server (its endpoint and keys)');
  const bucket = s3.bucket;
  const runId = randomUUID().slice(0, 8);
  const key = `bench-s3-client/${runId}/object.json`;
  const body = JSON.stringify({ text: 'x'.repeat(1_500) });

  const store = createS3Client(s3);
  const sdk = new SdkS3Client({
    endpoint: s3.endpoint,
    region: s3.region ?? 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const endpoint = new URL(s3.endpoint);
  const { etag } = await store.putObject(bucket, key, body, { contentType: 'application/json' });
  let seq = 0;
  const newKey = () => `bench-s3-client/${runId}/new-${seq++}.json`;

  const bare = (method: 'GET' | 'PUT', path: string, headers: Record<string, string> = {}, payload?: string) =>
    new Promise<void>((resolve, reject) => {
      const req = request({ host: endpoint.hostname, port: endpoint.port, method, path: `/${bucket}/${path}`, headers, agent }, (res) => {
        res.on('data', () => undefined);
        res.once('end', resolve);
        res.once('error', reject);
      });
      req.once('error', reject);
      req.end(payload);
    });

  const ops: Record<Kind, Record<Op, () => Promise<unknown>>> = {
    'bare http': {
      GET: () => bare('GET', key),
      'GET 304': () => bare('GET', key, { 'if-none-match': etag }),
      'PUT create-only': () => bare('PUT', newKey(), { 'if-none-match': '*', 'content-type': 'application/json', 'content-length': String(body.length) }, body),
    },
    'SDK defaults': {
      GET: async () => (await sdk.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray(),
      'GET 304': () =>
        sdk.send(new GetObjectCommand({ Bucket: bucket, Key: key, IfNoneMatch: etag })).catch((e: { $metadata?: { httpStatusCode?: number } }) => {
          if (e.$metadata?.httpStatusCode !== 304) throw e;
        }),
      'PUT create-only': () => sdk.send(new PutObjectCommand({ Bucket: bucket, Key: newKey(), Body: body, ContentType: 'application/json', IfNoneMatch: '*' })),
    },
    'store client': {
      GET: () => store.getObject(bucket, key),
      'GET 304': async () => {
        if (!(await store.getObject(bucket, key, etag)).notModified) throw new Error('expected 304');
      },
      'PUT create-only': () => store.putObject(bucket, newKey(), body, { contentType: 'application/json', ifNoneMatch: '*' }),
    },
  };

  async function cpuPerRequestUs(op: () => Promise<unknown>, n: number): Promise<number> {
    const before = process.cpuUsage();
    for (let done = 0; done < n; done += CONCURRENCY) await Promise.all(Array.from({ length: Math.min(CONCURRENCY, n - done) }, op));
    const used = process.cpuUsage(before);
    return (used.user + used.system) / n;
  }

  ctx.log(`warm-up …`);
  for (const kind of KINDS) for (const op of OPS) await cpuPerRequestUs(ops[kind][op], 300);
  const samples = Object.fromEntries(KINDS.map((k) => [k, Object.fromEntries(OPS.map((o) => [o, [] as number[]]))])) as Record<Kind, Record<Op, number[]>>;
  for (let round = 0; round < ROUNDS; round++) {
    for (const op of OPS) for (const kind of KINDS) samples[kind][op].push(await cpuPerRequestUs(ops[kind][op], REQUESTS));
    ctx.log(`round ${round + 1}/${ROUNDS}: ${OPS.map((op) => `${op} ${KINDS.map((k) => `${k} ${samples[k][op].at(-1)!.toFixed(0)}`).join(', ')} µs`).join('; ')}`);
  }

  const figures: BenchFigures = { requests: REQUESTS, rounds: ROUNDS, concurrency: CONCURRENCY, cpuUsPerRequest: {} };
  ctx.log(`CPU per request in this process (median of ${ROUNDS} rounds of ${REQUESTS}, ${CONCURRENCY} at a time; ratios per round):`);
  for (const op of OPS) {
    const us = (k: Kind) => median(samples[k][op]);
    const ratio = (a: Kind, b: Kind) => samples[a][op].map((v, i) => v / samples[b][op][i]!);
    (figures.cpuUsPerRequest as Record<string, unknown>)[op] = Object.fromEntries(KINDS.map((k) => [k, us(k)]));
    ctx.log(
      `  ${op.padEnd(16)} store client ${us('store client').toFixed(0)} µs, SDK defaults ${us('SDK defaults').toFixed(0)} µs, bare http ${us('bare http').toFixed(0)} µs; ` +
        `store/defaults ${spread(ratio('store client', 'SDK defaults'))}, store/bare ${spread(ratio('store client', 'bare http'))}`,
    );
  }
  store.destroy();
  sdk.destroy();
  agent.destroy();
  return figures;
}
