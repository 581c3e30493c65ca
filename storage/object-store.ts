import type { z } from 'zod';
import { CorruptObjectError, PreconditionConflictError, type WriteCondition } from './errors';
import type { S3Client } from './s3-client';
import { isNotFound, isPreconditionFailure } from './s3-errors';

/** Raw bytes, text, or any other value (stored as JSON). */
export type StoredBody = Uint8Array | string | object;

export interface Stored<T> {
  value: T;
  etag: string;
}

/** A conditional GET answer: unchanged since `ifNoneMatch`, or the current value. */
export type Fetched<T> = { notModified: true } | ({ notModified?: false } & Stored<T>);

/**
 * A thin store of JSON, text and bytes in one bucket. Writes are create-only, If-Match,
 * or (for derived objects only) unconditional; a failed condition always surfaces as a
 * PreconditionConflictError, never as an overwrite.
 */
export interface ObjectStore {
  readonly bucket: string;
  getJson<S extends z.ZodType>(key: string, schema: S): Promise<Stored<z.output<S>> | undefined>;
  getText(key: string, ifNoneMatch?: string): Promise<Fetched<string> | undefined>;
  getBytes(key: string): Promise<Stored<Uint8Array> | undefined>;
  /** `If-None-Match: *`. */
  putCreateOnly(key: string, body: StoredBody): Promise<{ etag: string }>;
  putIfMatch(key: string, body: StoredBody, etag: string): Promise<{ etag: string }>;
  /** Unconditional: only for objects one writer rewrites whole (a job outcome, an experiment's records). */
  put(key: string, body: StoredBody): Promise<{ etag: string }>;
  /** Every key under `prefix`, all pages, in lexical order. */
  list(prefix: string): Promise<string[]>;
  /** The next `/`-separated segment of every key under `prefix` (like `ls`), in lexical order. */
  listChildren(prefix: string): Promise<string[]>;
  exists(key: string): Promise<boolean>;
  /** Idempotent: deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
}

export function createObjectStore(client: S3Client, bucket: string): ObjectStore {
  async function get(key: string, ifNoneMatch?: string): Promise<Fetched<Uint8Array> | undefined> {
    try {
      const res = await client.getObject(bucket, key, ifNoneMatch);
      return res.notModified ? res : { value: res.body, etag: res.etag };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async function write(key: string, body: StoredBody, condition?: WriteCondition): Promise<{ etag: string }> {
    const { bytes, contentType } = encode(key, body);
    try {
      return await client.putObject(bucket, key, bytes, {
        contentType,
        ...(condition && 'ifNoneMatch' in condition ? { ifNoneMatch: '*' } : {}),
        ...(condition && 'ifMatch' in condition ? { ifMatch: condition.ifMatch } : {}),
      });
    } catch (error) {
      if (condition && isPreconditionFailure(error)) throw new PreconditionConflictError(key, condition, { cause: error });
      throw error;
    }
  }

  const listPage = (prefix: string, delimiter: string | undefined, token: string | undefined) =>
    client.listObjects(bucket, prefix, { ...(delimiter ? { delimiter } : {}), ...(token ? { continuationToken: token } : {}) });

  return {
    bucket,

    async getJson(key, schema) {
      const got = await get(key);
      if (!got || got.notModified) return undefined;
      return { value: parseJson(key, decodeText(got.value), schema), etag: got.etag };
    },

    async getText(key, ifNoneMatch) {
      const got = await get(key, ifNoneMatch);
      if (!got || got.notModified) return got;
      return { value: decodeText(got.value), etag: got.etag };
    },

    async getBytes(key) {
      const got = await get(key);
      return got && !got.notModified ? got : undefined;
    },

    putCreateOnly: (key, body) => write(key, body, { ifNoneMatch: '*' }),
    putIfMatch: (key, body, etag) => write(key, body, { ifMatch: etag }),
    put: (key, body) => write(key, body),

    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await listPage(prefix, undefined, token);
        keys.push(...page.keys);
        token = page.nextToken;
      } while (token);
      return keys.sort(lexical);
    },

    async listChildren(prefix) {
      const children = new Set<string>();
      let token: string | undefined;
      do {
        const page = await listPage(prefix, '/', token);
        for (const p of page.prefixes) children.add(p.slice(prefix.length).replace(/\/$/, ''));
        for (const key of page.keys) children.add(key.slice(prefix.length));
        token = page.nextToken;
      } while (token);
      return [...children].sort(lexical);
    },

    async exists(key) {
      try {
        await client.headObject(bucket, key);
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },

    async delete(key) {
      try {
        await client.deleteObject(bucket, key);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },
  };
}

/** Parses stored JSON text against a schema; failures name the key. */
export function parseJson<S extends z.ZodType>(key: string, text: string, schema: S): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CorruptObjectError(key, `not JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new CorruptObjectError(key, issues);
  }
  return parsed.data;
}

/**
 * The stored form of a large object rewritten by every burst of its workflow (a scope's index
 * and usage summary, which grow with the number of skills): without indentation it is about
 * half the bytes, and a fifth of the serialisation time, of the indented form other objects keep.
 */
export function compactJson(value: object): string {
  return `${JSON.stringify(value)}\n`;
}

/** The stored form of every other JSON object: indented, for people reading the bucket. */
export function indentedJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function encode(key: string, body: StoredBody): { bytes: Uint8Array | string; contentType: string } {
  if (body instanceof Uint8Array) return { bytes: body, contentType: 'application/octet-stream' };
  if (typeof body === 'string') return { bytes: body, contentType: contentTypeFor(key) };
  return { bytes: indentedJson(body), contentType: 'application/json' };
}

function contentTypeFor(key: string): string {
  if (key.endsWith('.json')) return 'application/json';
  if (key.endsWith('.md')) return 'text/markdown; charset=utf-8';
  if (key.endsWith('.html')) return 'text/html; charset=utf-8';
  return 'text/plain; charset=utf-8';
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

// S3 lists in UTF-8 byte order; keys here are ASCII, where that equals code-unit order.
function lexical(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
