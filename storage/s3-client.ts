import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client as SdkS3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { loadConfig, NODE_REGION_CONFIG_FILE_OPTIONS, NODE_REGION_CONFIG_OPTIONS } from '@smithy/core/config';
import { s3EndpointOf, type S3Settings } from '../core';
import { serviceUnavailable } from '../core/errors';
import { networkFailureOf } from './network-errors';
import { storageRequestBudgetMs } from './client-deadline';
import { describeCredentialSource, REFUSED_CREDENTIAL_CODES, STATIC_KEYS_SOURCE } from './credential-source';
import { readCaBundle } from './tls';

export type { S3Settings };

/**
 * The store's S3 transport: the six calls the object store makes, through
 * `@aws-sdk/client-s3` (signing, credentials and their refresh, endpoint and addressing
 * rules, XML), with every S3 error answer turned into an S3ResponseError.
 */
export interface S3Client {
  /** 304 (unchanged since `ifNoneMatch`) is an answer, not an error. */
  getObject(bucket: string, key: string, ifNoneMatch?: string): Promise<{ notModified: true } | { notModified?: false; body: Uint8Array; etag: string }>;
  putObject(bucket: string, key: string, body: Uint8Array | string, options: { contentType: string; ifNoneMatch?: '*'; ifMatch?: string }): Promise<{ etag: string }>;
  headObject(bucket: string, key: string): Promise<void>;
  deleteObject(bucket: string, key: string): Promise<void>;
  /** One ListObjectsV2 page. */
  listObjects(bucket: string, prefix: string, options?: { delimiter?: string; continuationToken?: string }): Promise<ListPage>;
  /** Creates a bucket; one that exists already is fine. */
  createBucket(bucket: string): Promise<void>;
  /** Where the credentials of the last request came from (named in credential errors). */
  credentialSource(): string;
  /** Closes the idle keep-alive connections. */
  destroy(): void;
}

export interface ListPage {
  keys: string[];
  /** CommonPrefixes (with a delimiter), each ending in the delimiter. */
  prefixes: string[];
  /** Set when the listing goes on. */
  nextToken?: string;
}

/** An S3 answer other than 2xx or 304, with S3's error code when it gave one. */
export class S3ResponseError extends Error {
  override name = 'S3ResponseError';

  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly requestId: string | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No credentials could be resolved (the provider chain found none, or its source failed). */
export class S3CredentialsError extends Error {
  override name = 'S3CredentialsError';

  constructor(
    readonly source: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Temporal decides activity retries; the SDK's own standard retry (3 attempts, jittered
 * backoff, a retry quota) only rides out a network blip or a throttled answer or two.
 * (A retried conditional PUT whose first response was lost comes back as a 412; the stores
 * treat "412 but the stored object is what I wrote" as success.)
 */
const DEFAULT_MAX_ATTEMPTS = 3;
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * A request whose socket stays silent this long fails (a TimeoutError, retried like a broken
 * connection): how a server that accepts connections but stops answering (hung, or stopped with
 * SIGSTOP) is noticed outside a client call. The handler's `requestTimeout` would only log a
 * warning unless told to throw, and would cut a large transfer that is still moving.
 */
const IDLE_TIMEOUT_MS = 30_000;
/**
 * Sockets per S3 host: a worker runs up to a few hundred activities and local activities at
 * once, each making one request at a time; beyond this, requests queue for a socket.
 */
const MAX_SOCKETS = 256;
const FALLBACK_REGION = 'us-east-1';

/**
 * Client-level middleware the store does without: logging (no logger is configured),
 * the user-agent header (telemetry only), Lambda's trace header, the bucket-name check (the
 * bucket is validated with the configuration), region redirects (off: `followRegionRedirects`
 * is not set), `Expect: 100-continue` (the store's objects are small; with it the handler
 * opens a new connection per request), and S3 Express One Zone sessions (directory buckets are
 * not used). Each would run on every request. A name the SDK no longer uses is skipped.
 */
const UNUSED_MIDDLEWARE = [
  'loggerMiddleware',
  'getUserAgentMiddleware',
  'recursionDetectionMiddleware',
  'validateBucketNameMiddleware',
  'regionRedirectMiddleware',
  'addExpectContinueMiddleware',
  's3ExpressMiddleware',
];

export function createS3Client(s3: S3Settings, options: { maxAttempts?: number; idleTimeoutMs?: number } = {}): S3Client {
  // The pinned SDK supports this Node; its notice about the Node that future SDK versions need is noise in every process.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const staticKeys = s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined;
  let source = staticKeys ? STATIC_KEYS_SOURCE : describeCredentialSource(undefined, s3.profile ?? process.env.AWS_PROFILE);
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS, ...(s3.caFile ? { ca: readCaBundle('EVOLUTION_S3_CA_FILE', s3.caFile) } : {}) });
  // Shared by the SDK client of every bucket: one credential chain (resolved and refreshed once), one region lookup.
  const config: S3ClientConfig = {
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    region: s3.region ?? regionFromSharedConfig(s3.profile),
    forcePathStyle: s3.forcePathStyle,
    credentials: staticKeys ?? chainCredentials(s3.profile, (described) => (source = described)),
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    // S3-compatible servers neither need nor all accept the SDK's default CRC32 checksums;
    // ETags and the store's own hashes cover its objects.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    disableS3ExpressSessionAuth: true,
    // The middleware stack is resolved once per command class instead of on every send (see sdkFor).
    cacheMiddleware: true,
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS, httpAgent, httpsAgent },
  };
  const endpoint = s3EndpointOf(s3);
  const clients = new Map<string, SdkS3Client>();

  /**
   * The SDK client for one bucket. One per bucket because with `cacheMiddleware` the requests
   * of a command class share one handler context, which the endpoint middleware writes on each
   * request: the same for every key of a bucket, not across buckets (path-style endpoints name it).
   */
  function sdkFor(bucket: string): SdkS3Client {
    let sdk = clients.get(bucket);
    if (sdk) return sdk;
    sdk = new SdkS3Client(config);
    for (const name of UNUSED_MIDDLEWARE) sdk.middlewareStack.remove(name);
    reuseSigner(sdk);
    clients.set(bucket, sdk);
    return sdk;
  }

  async function call<T>(what: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      throw s3Error(error, what, source, endpoint);
    }
  }

  /**
   * One request (`run` gets the options for `send`, if any: its SDK attempts and body reads), under the
   * client deadline when a client call makes it (storage/client-deadline.ts): aborted once the
   * call's share is spent, as the one-line error naming S3. Elsewhere (workers) the SDK's own
   * timeouts and attempts apply, unchanged.
   */
  async function bounded<T>(run: (options: { abortSignal: AbortSignal } | undefined) => Promise<T>): Promise<T> {
    const budget = storageRequestBudgetMs();
    // No options at all, not `{}`: the SDK uses its middleware cache only for a send without options.
    if (budget === undefined) return run(undefined);
    const noAnswer = (cause?: unknown) => serviceUnavailable('s3', endpoint, { detail: 'no answer before the deadline', ...(cause ? { cause } : {}) });
    if (budget <= 0) throw noAnswer();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), budget);
    try {
      return await run({ abortSignal: controller.signal });
    } catch (error) {
      throw controller.signal.aborted ? noAnswer(error) : error;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    getObject(bucket, key, ifNoneMatch) {
      return bounded(async (options) => {
        let res;
        try {
          res = await sdkFor(bucket).send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(ifNoneMatch ? { IfNoneMatch: ifNoneMatch } : {}) }), options);
        } catch (error) {
          if (statusOf(error) === 304) return { notModified: true } as const;
          throw s3Error(error, `GET ${bucket}/${key}`, source, endpoint);
        }
        const body = await call(`GET ${bucket}/${key}`, () => res.Body!.transformToByteArray());
        return { body, etag: requireEtag(key, res.ETag) };
      });
    },

    async putObject(bucket, key, body, { contentType, ifNoneMatch, ifMatch }) {
      const res = await bounded((options) =>
        call(`PUT ${bucket}/${key}`, () =>
          sdkFor(bucket).send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: key,
              Body: body,
              ContentType: contentType,
              ...(ifNoneMatch ? { IfNoneMatch: ifNoneMatch } : {}),
              ...(ifMatch ? { IfMatch: ifMatch } : {}),
            }),
            options,
          ),
        ),
      );
      return { etag: requireEtag(key, res.ETag) };
    },

    async headObject(bucket, key) {
      await bounded((options) => call(`HEAD ${bucket}/${key}`, () => sdkFor(bucket).send(new HeadObjectCommand({ Bucket: bucket, Key: key }), options)));
    },

    async deleteObject(bucket, key) {
      await bounded((options) => call(`DELETE ${bucket}/${key}`, () => sdkFor(bucket).send(new DeleteObjectCommand({ Bucket: bucket, Key: key }), options)));
    },

    async listObjects(bucket, prefix, { delimiter, continuationToken } = {}) {
      const res = await bounded((options) =>
        call(`LIST ${bucket}/${prefix}`, () =>
          sdkFor(bucket).send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix: prefix,
              ...(delimiter ? { Delimiter: delimiter } : {}),
              ...(continuationToken ? { ContinuationToken: continuationToken } : {}),
            }),
            options,
          ),
        ),
      );
      const nextToken = res.IsTruncated ? res.NextContinuationToken : undefined;
      if (res.IsTruncated && !nextToken) throw new Error(`S3 listing of ${bucket}/${prefix} is truncated but has no NextContinuationToken`);
      return {
        keys: (res.Contents ?? []).flatMap((o) => (o.Key === undefined ? [] : [o.Key])),
        prefixes: (res.CommonPrefixes ?? []).flatMap((p) => (p.Prefix === undefined ? [] : [p.Prefix])),
        ...(nextToken ? { nextToken } : {}),
      };
    },

    async createBucket(bucket) {
      try {
        await bounded((options) => call(`CREATE BUCKET ${bucket}`, () => sdkFor(bucket).send(new CreateBucketCommand({ Bucket: bucket }), options)));
      } catch (e) {
        if (e instanceof S3ResponseError && (e.code === 'BucketAlreadyOwnedByYou' || e.code === 'BucketAlreadyExists')) return;
        throw e;
      }
    },

    credentialSource: () => source,
    destroy() {
      for (const sdk of clients.values()) sdk.destroy();
      clients.clear();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/**
 * The SDK builds a new SigV4 signer (copying the whole client configuration, and so deriving
 * its signing key afresh) for every request whose endpoint names an auth scheme, as S3's
 * always do. The signer for a scheme, region and service does not change: build it once.
 */
function reuseSigner(sdk: SdkS3Client): void {
  const config = sdk.config as { signer?: unknown };
  const build = config.signer;
  if (typeof build !== 'function') return;
  const signers = new Map<string, Promise<unknown>>();
  config.signer = (authScheme?: { name?: string; signingRegion?: string; signingName?: string }) => {
    const key = `${authScheme?.name}|${authScheme?.signingRegion}|${authScheme?.signingName}`;
    let signer = signers.get(key);
    if (!signer) {
      signer = (build as (scheme?: unknown) => Promise<unknown>)(authScheme);
      signers.set(key, signer);
      signer.catch(() => signers.delete(key));
    }
    return signer;
  };
}

/** Creates a bucket (the local S3 server's, a test's own); one that exists already is fine. */
export function createBucket(client: S3Client, bucket: string): Promise<void> {
  return client.createBucket(bucket);
}

/**
 * The SDK's default provider chain (its own memoization refreshes expiring credentials
 * before they expire), noting where each resolved set came from.
 */
function chainCredentials(profile: string | undefined, onSource: (described: string) => void) {
  const chain = fromNodeProviderChain(profile ? { profile } : {});
  let last: unknown;
  const provider = async (props?: Parameters<typeof chain>[0]) => {
    let credentials;
    try {
      credentials = await chain(props);
    } catch (error) {
      const described = describeCredentialSource(undefined, profile ?? process.env.AWS_PROFILE);
      throw new S3CredentialsError(described, `S3 credentials: none could be loaded from ${described}: ${oneLine((error as Error).message)}`, { cause: error });
    }
    if (credentials !== last) {
      last = credentials;
      onSource(describeCredentialSource((credentials as { $source?: Record<string, string> }).$source, profile ?? process.env.AWS_PROFILE));
    }
    return credentials;
  };
  // The chain memoizes and refreshes by itself: the client need not wrap it again.
  return Object.assign(provider, { memoized: true });
}

/** AWS_REGION or the profile's `region`, as the SDK would find it; else us-east-1 (S3-compatible servers rarely care). */
function regionFromSharedConfig(profile: string | undefined): () => Promise<string> {
  const load = loadConfig(NODE_REGION_CONFIG_OPTIONS, { ...NODE_REGION_CONFIG_FILE_OPTIONS, ...(profile ? { profile } : {}) });
  let region: Promise<string> | undefined;
  return () => (region ??= load().catch(() => FALLBACK_REGION));
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

/**
 * An SDK failure as the stores classify it: an S3 answer becomes an S3ResponseError (a refused
 * credential names its source), a credential failure stays an S3CredentialsError, and a
 * network error (ECONNREFUSED, a timeout) becomes the one-line ServiceUnavailableError naming
 * S3 and its endpoint (its `code` and `cause` keep the network error for classifiers).
 */
function s3Error(error: unknown, what: string, source: string, endpoint: string): unknown {
  if (error instanceof S3CredentialsError || error instanceof S3ResponseError) return error;
  const status = statusOf(error);
  if (status === undefined) {
    const failure = networkFailureOf(error);
    if (!failure) return error;
    return serviceUnavailable('s3', endpoint, { detail: failure, cause: error, ...(failure.startsWith('E') ? { code: failure } : {}) });
  }
  if (!(error instanceof Error)) return error;
  const e = error as Error & { Code?: string; $metadata: { requestId?: string } };
  const code = e.Code ?? (e.name && e.name !== 'Unknown' && e.name !== 'UnknownError' ? e.name : undefined);
  const detail = e.message && e.message !== 'UnknownError' ? `: ${oneLine(e.message)}` : '';
  const message =
    code && REFUSED_CREDENTIAL_CODES.has(code)
      ? `S3 refused the credentials from ${source} (${code}) at ${what}${detail}`
      : `S3 ${what}: HTTP ${status}${code ? ` ${code}` : ''}${detail}${status === 403 ? ` (credentials from ${source})` : ''}`;
  return new S3ResponseError(status, code, e.$metadata.requestId, message, { cause: error });
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

function requireEtag(key: string, etag: string | undefined): string {
  if (!etag) throw new Error(`S3 returned no ETag for ${key}; conditional writes need one`);
  return etag;
}

const shared = new Map<string, S3Client>();

/**
 * The process's one client for these settings (any bucket): its connections, credentials
 * (resolved and refreshed once, not per store) and endpoint rules serve every store built on it.
 */
export function sharedS3Client(s3: S3Settings): S3Client {
  const { bucket: _bucket, ...rest } = s3;
  const key = JSON.stringify(rest, Object.keys(rest).sort());
  let client = shared.get(key);
  if (!client) shared.set(key, (client = createS3Client(s3)));
  return client;
}
