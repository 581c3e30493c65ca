import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { EvolutionConfig } from '../core';
import { NETWORK_ERROR_CODES } from './network-errors';
import { readCaBundle } from './tls';
import { parseErrorBody } from './s3-xml';
import { sha256Hex } from './sha256';
import { canonicalQuery, createSigner, EMPTY_PAYLOAD_HASH, uriEncode } from './sigv4';

export type S3Settings = EvolutionConfig['s3'];

/**
 * The store's S3 transport: signed HTTP requests on keep-alive connections, nothing more.
 * The store needs five calls (GET, conditional PUT, HEAD, DELETE, ListObjectsV2); doing them
 * here, instead of through @aws-sdk/client-s3's command pipeline, costs a third of the
 * worker CPU per request (see the README's Performance section).
 */
export interface S3Request {
  method: 'GET' | 'PUT' | 'HEAD' | 'DELETE';
  bucket: string;
  /** Object key; none for a request on the bucket (a listing, creating it). */
  key?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
}

export interface S3Response {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An answer other than 2xx or 304, with S3's error code when the body carried one. */
export class S3ResponseError extends Error {
  override name = 'S3ResponseError';

  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly requestId: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export interface S3Client {
  /** 2xx and 304 answers; any other status throws S3ResponseError. */
  send(request: S3Request): Promise<S3Response>;
  /** Closes the idle keep-alive connections. */
  destroy(): void;
}

/**
 * Temporal decides activity retries; the client only rides out a network blip or two.
 * (A retried conditional PUT whose first response was lost comes back as a 412; the
 * stores treat "412 but the stored object is what I wrote" as success.)
 */
const DEFAULT_MAX_ATTEMPTS = 3;
const CONNECT_TIMEOUT_MS = 5_000;
const SOCKET_IDLE_TIMEOUT_MS = 30_000;
const RETRY_BASE_DELAY_MS = 100;
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const DNS_LABEL = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
/** S3's own "took too long to send the body" answer (HTTP 400) is transient too. */
const RETRYABLE_CODES = new Set(['RequestTimeout', 'SlowDown']);

export function createS3Client(s3: S3Settings, options: { maxAttempts?: number } = {}): S3Client {
  const endpoint = new URL(s3.endpoint);
  const https = endpoint.protocol === 'https:';
  const agent = https ? new HttpsAgent({ keepAlive: true, ...(s3.caFile ? { ca: readCaBundle('EVOLUTION_S3_CA_FILE', s3.caFile) } : {}) }) : new HttpAgent({ keepAlive: true });
  const sign = createSigner({ accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }, s3.region);
  const basePath = endpoint.pathname.replace(/\/+$/, '');
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;

  // `new URL` keeps an IPv6 literal's brackets in hostname; sockets want the bare address (Host keeps them).
  const hostname = endpoint.hostname.replace(/^\[(.*)\]$/, '$1');

  /**
   * Virtual-hosted `{bucket}.{host}/{key}`, unless path-style is forced or the bucket cannot
   * be a host name there: an IP-literal endpoint, or a bucket that is not one DNS label
   * (a dotted name would not match the server's wildcard certificate). Else `/{bucket}/{key}`.
   */
  function addressOf(bucket: string, key: string | undefined): { hostname: string; host: string; path: string } {
    const encodedKey = key === undefined ? '' : key.split('/').map(uriEncode).join('/');
    if (s3.forcePathStyle || isIP(hostname) !== 0 || !DNS_LABEL.test(bucket)) {
      return { hostname, host: endpoint.host, path: `${basePath}/${bucket}${key === undefined ? '' : `/${encodedKey}`}` };
    }
    return { hostname: `${bucket}.${hostname}`, host: `${bucket}.${endpoint.host}`, path: `${basePath}/${encodedKey}` };
  }

  function attempt(request: S3Request): Promise<S3Response> {
    const { hostname: connectTo, host, path } = addressOf(request.bucket, request.key);
    const query = request.query ?? {};
    const body = request.body === undefined ? undefined : typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
    const headers = sign(
      {
        method: request.method,
        path,
        query,
        headers: { ...request.headers, host, ...(body ? { 'content-length': String(body.byteLength) } : {}) },
        payloadHash: body ? sha256Hex(body) : EMPTY_PAYLOAD_HASH,
      },
      new Date(),
    );
    const search = canonicalQuery(query);
    const send = https ? httpsRequest : httpRequest;
    return new Promise<S3Response>((resolve, reject) => {
      const req = send({
        protocol: endpoint.protocol,
        hostname: connectTo,
        port: endpoint.port || undefined,
        method: request.method,
        path: search ? `${path}?${search}` : path,
        headers,
        agent,
      });
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(() => req.destroy(timeoutError(`connecting to ${endpoint.host} took over ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
      req.setTimeout(SOCKET_IDLE_TIMEOUT_MS, () => req.destroy(timeoutError(`no answer from ${endpoint.host} for ${SOCKET_IDLE_TIMEOUT_MS} ms`)));
      req.once('error', reject);
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', reject);
        res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.end(body);
    });
  }

  return {
    async send(request) {
      for (let attemptNo = 1; ; attemptNo++) {
        let failure: unknown;
        try {
          const res = await attempt(request);
          if ((res.status >= 200 && res.status < 300) || res.status === 304) return res;
          failure = responseError(request, res);
        } catch (e) {
          failure = e;
        }
        if (!isRetryable(failure) || attemptNo >= maxAttempts) throw failure;
        await new Promise((r) => setTimeout(r, Math.random() * RETRY_BASE_DELAY_MS * 2 ** attemptNo));
      }
    },
    destroy: () => agent.destroy(),
  };
}

/** Creates a bucket (the local S3 server's, a test's own); one that exists already is fine. */
export async function createBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send({ method: 'PUT', bucket });
  } catch (e) {
    if (e instanceof S3ResponseError && (e.code === 'BucketAlreadyOwnedByYou' || e.code === 'BucketAlreadyExists')) return;
    throw e;
  }
}

function responseError(request: S3Request, res: S3Response): S3ResponseError {
  const { code, message } = parseErrorBody(res.body.toString('utf8'));
  const requestId = firstHeader(res.headers['x-amz-request-id']);
  const what = `${request.method} ${request.bucket}${request.key === undefined ? '' : `/${request.key}`}`;
  return new S3ResponseError(
    res.status,
    code ?? (res.status === 404 ? 'NotFound' : undefined),
    requestId,
    `S3 ${what}: HTTP ${res.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`,
  );
}

function isRetryable(error: unknown): boolean {
  if (error instanceof S3ResponseError) return RETRYABLE_STATUS.has(error.status) || RETRYABLE_CODES.has(error.code ?? '');
  return NETWORK_ERROR_CODES.has((error as NodeJS.ErrnoException).code ?? '');
}

function timeoutError(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code: 'ETIMEDOUT', name: 'TimeoutError' });
}

export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
