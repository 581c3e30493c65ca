"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.payloadStore = payloadStore;
const node_crypto_1 = require("node:crypto");
const errors_1 = require("./errors");
const keys_1 = require("./keys");
/** Claim-check storage for inputs too big for workflow history, addressed by content hash. */
const CACHED_PAYLOADS = 64;
const CACHEABLE_BYTES = 1 << 20;
function payloadStore(objects) {
    // Payloads are immutable (addressed by their hash), so a verified copy is reusable: the
    // reviewer rebuilds its transcript from the segment prepareReview just read.
    const cache = new Map();
    /** Create-only; the key is the content's hash, so an existing object is the same payload. */
    async function putPayload(data) {
        const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
        const ref = { sha256: sha256Hex(bytes), bytes: bytes.byteLength };
        try {
            await objects.putCreateOnly((0, keys_1.payloadKey)(ref.sha256), bytes);
        }
        catch (error) {
            if (!(error instanceof errors_1.PreconditionConflictError))
                throw error;
        }
        return ref;
    }
    /** The payload's bytes, verified against the reference (size and SHA-256). */
    async function getPayload(ref) {
        const key = (0, keys_1.payloadKey)(ref.sha256);
        const cached = cache.get(ref.sha256);
        if (cached && cached.byteLength === ref.bytes)
            return cached;
        const stored = await objects.getBytes(key);
        if (!stored)
            throw new errors_1.NotFoundError(key, 'payload');
        const bytes = stored.value;
        if (bytes.byteLength !== ref.bytes)
            throw new errors_1.PayloadIntegrityError(key, `expected ${ref.bytes} bytes, found ${bytes.byteLength}`);
        const actual = sha256Hex(bytes);
        if (actual !== ref.sha256)
            throw new errors_1.PayloadIntegrityError(key, `content hashes to ${actual}`);
        if (bytes.byteLength <= CACHEABLE_BYTES) {
            cache.set(ref.sha256, bytes);
            if (cache.size > CACHED_PAYLOADS)
                cache.delete(cache.keys().next().value);
        }
        return bytes;
    }
    async function getPayloadText(ref) {
        return new TextDecoder('utf-8', { fatal: true }).decode(await getPayload(ref));
    }
    return { putPayload, getPayload, getPayloadText };
}
function sha256Hex(bytes) {
    return (0, node_crypto_1.createHash)('sha256').update(bytes).digest('hex');
}
//# sourceMappingURL=payload-store.js.map