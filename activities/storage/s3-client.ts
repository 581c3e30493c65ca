import { Agent } from 'node:https';
import { S3Client } from '@aws-sdk/client-s3';
import type { EvolutionConfig } from '../../core';
import { readCaBundle } from '../tls';

export type S3Settings = EvolutionConfig['s3'];

/**
 * Temporal decides activity retries; the SDK only rides out a network blip or two.
 * (A retried conditional PUT whose first response was lost comes back as a 412; the
 * stores treat "412 but the stored object is what I wrote" as success.)
 */
const SDK_MAX_ATTEMPTS = 3;

export function createS3Client(s3: S3Settings): S3Client {
  // Our pinned SDK supports Node 20; its end-of-support notice is noise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    maxAttempts: SDK_MAX_ATTEMPTS,
    // Checksums only where S3 requires them: not every S3-compatible server accepts
    // the SDK's default CRC32 trailers, and ETags already cover our small objects.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The middleware stack is resolved once per command class instead of on every send
    // (nothing adds middleware after construction): about a third of the SDK's CPU per request.
    cacheMiddleware: true,
    requestHandler: {
      connectionTimeout: 5_000,
      requestTimeout: 30_000,
      ...(s3.caFile ? { httpsAgent: new Agent({ keepAlive: true, ca: readCaBundle('EVOLUTION_S3_CA_FILE', s3.caFile) }) } : {}),
    },
  });
}
