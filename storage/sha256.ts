import { createHash } from 'node:crypto';

/** SHA-256 as lowercase hex, on node:crypto (workflow code uses core's pure `sha256Hex`, which gives the same digest). */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
