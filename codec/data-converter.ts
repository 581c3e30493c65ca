import type { DataConverter } from '@temporalio/common';
import type { EvolutionConfig } from '../core';
import { AesGcmPayloadCodec } from './aes-gcm-codec';

/**
 * The data converter every client and worker uses: payloads encrypted when payload keys are
 * configured (EVOLUTION_PAYLOAD_KEYS), Temporal's default otherwise. With keys, strict mode
 * (EVOLUTION_PAYLOAD_STRICT, on unless set to false) marks plaintext payloads so workers
 * refuse them as workflow inputs, signals and updates.
 */
export function evolutionDataConverter(config: EvolutionConfig): DataConverter | undefined {
  const keys = config.payloadKeys;
  return keys?.length ? { payloadCodecs: [new AesGcmPayloadCodec(keys, { strict: config.payloadStrict !== false })] } : undefined;
}
