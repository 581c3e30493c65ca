import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { ConfigError } from '../core';

/**
 * A PEM bundle of CA certificates to trust for an https endpoint signed by a private CA,
 * read once when the client is created; a missing file or non-PEM content names the variable.
 */
export function readCaBundle(variable: string, path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(`${variable} (${path}): ${code === 'ENOENT' ? 'file not found' : (e as Error).message}`);
  }
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new ConfigError(`${variable} (${path}): no PEM certificate in the file`);
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (e) {
      throw new ConfigError(`${variable} (${path}): not a valid certificate (${(e as Error).message})`);
    }
  }
  return pem;
}
