import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { PayloadKey } from './keys';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** Metadata key naming the key that encrypted a payload (what makes rotation work). */
export const KEY_ID_METADATA = 'encryption-key-id';
const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A payload could not be decrypted: which key, and why. */
export class PayloadDecryptionError extends Error {
  override name = 'PayloadDecryptionError';
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null | undefined) => (b ? new TextDecoder().decode(b) : '');

/**
 * AES-256-GCM over the whole serialized payload (metadata included, so even the encoding
 * name is hidden). Layout of `data`: IV (12) ‖ ciphertext ‖ auth tag (16). The key id goes
 * in clear metadata so the right key is picked on decode; the id is also authenticated.
 */
export class AesGcmPayloadCodec implements PayloadCodec {
  private readonly byId: Map<string, Uint8Array>;

  constructor(private readonly keys: readonly PayloadKey[]) {
    if (keys.length === 0) throw new Error('AesGcmPayloadCodec needs at least one key');
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const { id, key } = this.keys[0]!;
    return payloads.map((p) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(CIPHER, key, iv);
      cipher.setAAD(Buffer.from(id));
      const plain = temporal.api.common.v1.Payload.encode(p).finish();
      const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return { metadata: { encoding: utf8(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: utf8(id) }, data };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => {
      if (text(p.metadata?.encoding) !== ENCRYPTED_ENCODING) return p;
      const id = text(p.metadata?.[KEY_ID_METADATA]);
      const key = this.byId.get(id);
      if (!key) {
        throw new PayloadDecryptionError(
          `payload was encrypted with key "${id}", which is not among the configured keys (${[...this.byId.keys()].join(', ')}): add it to EVOLUTION_PAYLOAD_KEYS`,
        );
      }
      const data = Buffer.from(p.data ?? new Uint8Array());
      if (data.length < IV_BYTES + TAG_BYTES) throw new PayloadDecryptionError(`payload encrypted with key "${id}" is truncated`);
      try {
        const decipher = createDecipheriv(CIPHER, key, data.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(id));
        decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
        const plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
        return temporal.api.common.v1.Payload.decode(plain) as Payload;
      } catch {
        throw new PayloadDecryptionError(
          `payload could not be decrypted with key "${id}": the configured key material differs from the one that encrypted it, or the payload was altered`,
        );
      }
    });
  }
}
