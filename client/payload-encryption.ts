import type { DataConverter, PayloadCodec } from '@temporalio/common';
import { AesGcmPayloadCodec } from '../codec/aes-gcm-codec';
import { loadPayloadKeys, type PayloadKey } from '../codec/keys';
import { ConfigError } from '../core/config';

export interface PayloadEncryptionOptions {
  /**
   * The deployment's payload keys, as its workers have them in EVOLUTION_PAYLOAD_KEYS:
   * `ID:KEY[,ID:KEY…]` (32-byte keys in base64 or hex), `file:PATH` naming a file that holds
   * them, or keys already parsed. The first key encrypts; all of them decrypt.
   */
  keys: string | readonly PayloadKey[];
}

function keysOf(opts: PayloadEncryptionOptions): readonly PayloadKey[] {
  const keys = typeof opts.keys === 'string' ? loadPayloadKeys(opts.keys, 'payload keys') : opts.keys;
  if (!keys?.length) throw new ConfigError('payload keys: none given (expected ID:BASE64_KEY[,ID:BASE64_KEY…] or file:PATH, as EVOLUTION_PAYLOAD_KEYS of the workers)');
  return keys;
}

/**
 * The codec of a deployment that encrypts Temporal payloads (AES-256-GCM, the workers' own):
 * for a codec server, or to decode payloads read from history. Not strict: a client decodes
 * what it is given.
 */
export function createPayloadCodec(opts: PayloadEncryptionOptions): PayloadCodec {
  return new AesGcmPayloadCodec(keysOf(opts));
}

/**
 * What `new Client({ connection, namespace, dataConverter })` needs against a deployment that
 * encrypts payloads: workflow inputs, signals and updates this client sends are encrypted (the
 * workers refuse plaintext ones in strict mode), and results come back decrypted.
 */
export function createDataConverter(opts: PayloadEncryptionOptions): DataConverter {
  return { payloadCodecs: [createPayloadCodec(opts)] };
}
