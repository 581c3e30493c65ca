import type { PayloadRef } from '../core';
import { NotFoundError, PayloadIntegrityError, PreconditionConflictError } from './errors';
import { payloadKey } from './keys';
import type { ObjectStore } from './object-store';
import { sha256Hex } from './sha256';

/** Claim-check storage for inputs too big for workflow history, addressed by content hash. */
const CACHED_PAYLOADS = 64;
const CACHEABLE_BYTES = 1 << 20;

export function payloadStore(objects: ObjectStore) {
  // Payloads are immutable (addressed by their hash), so a verified copy is reusable: the
  // reviewer rebuilds its transcript from the segment prepareReview just read.
  const cache = new Map<string, Uint8Array>();

  /** Create-only; the key is the content's hash, so an existing object is the same payload. */
  async function putPayload(data: Uint8Array | string): Promise<PayloadRef> {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    const ref: PayloadRef = { sha256: sha256Hex(bytes), bytes: bytes.byteLength };
    try {
      await objects.putCreateOnly(payloadKey(ref.sha256), bytes);
    } catch (error) {
      if (!(error instanceof PreconditionConflictError)) throw error;
    }
    return ref;
  }

  /** The payload's bytes, verified against the reference (size and SHA-256). */
  async function getPayload(ref: PayloadRef): Promise<Uint8Array> {
    const key = payloadKey(ref.sha256);
    const cached = cache.get(ref.sha256);
    if (cached && cached.byteLength === ref.bytes) return cached;
    const stored = await objects.getBytes(key);
    if (!stored) throw new NotFoundError(key, 'payload');
    const bytes = stored.value;
    if (bytes.byteLength !== ref.bytes) throw new PayloadIntegrityError(key, `expected ${ref.bytes} bytes, found ${bytes.byteLength}`);
    const actual = sha256Hex(bytes);
    if (actual !== ref.sha256) throw new PayloadIntegrityError(key, `content hashes to ${actual}`);
    if (bytes.byteLength <= CACHEABLE_BYTES) {
      cache.set(ref.sha256, bytes);
      if (cache.size > CACHED_PAYLOADS) cache.delete(cache.keys().next().value!);
    }
    return bytes;
  }

  async function getPayloadText(ref: PayloadRef): Promise<string> {
    return new TextDecoder('utf-8', { fatal: true }).decode(await getPayload(ref));
  }

  return { putPayload, getPayload, getPayloadText };
}

export type PayloadStore = ReturnType<typeof payloadStore>;
