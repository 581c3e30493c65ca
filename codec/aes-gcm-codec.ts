import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { UNAUTHENTICATED_PAYLOAD_MARK } from '../core/payload-authenticity';
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

  /**
   * `strict`: a payload that is not encrypted comes back marked UNAUTHENTICATED_PAYLOAD_MARK,
   * and the workflow-side guard (workflows/payload-guard.ts) refuses marked start inputs,
   * signals and updates. Not an error here: a client without the keys would otherwise fail
   * the workflow task on every replay and wedge the workflow. A payload that claims to be
   * encrypted but does not decrypt still throws (a missing or wrong key is an operator's
   * mistake, fixed by configuring the key; the task then goes on). Not strict: plaintext passes.
   */
  constructor(
    private readonly keys: readonly PayloadKey[],
    private readonly opts: { strict?: boolean } = {},
  ) {
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
    const unauthenticated = (p: Payload): Payload => ({ ...p, metadata: { ...p.metadata, [UNAUTHENTICATED_PAYLOAD_MARK]: utf8('1') } });
    return payloads.map((p) => {
      if (text(p.metadata?.encoding) !== ENCRYPTED_ENCODING) return this.opts.strict ? unauthenticated(p) : p;
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
