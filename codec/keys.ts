import { readFileSync } from 'node:fs';
import { ConfigError } from '../core';

/** One AES-256 key and the id written next to every payload it encrypts. */
export interface PayloadKey {
  id: string;
  key: Uint8Array;
}

const ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Parses `ID:KEY[,ID:KEY…]` (commas or newlines; KEY = 32 bytes in base64 or hex). The
 * first key encrypts; all of them decrypt, so rotation is "put a new key first, keep the
 * old ones until nothing in history needs them". Errors name the variable and the entry,
 * never the key material.
 */
export function parsePayloadKeys(text: string, source = 'EVOLUTION_PAYLOAD_KEYS'): PayloadKey[] {
  const entries = text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter((s) => s !== '' && !s.startsWith('#'));
  if (entries.length === 0) throw new ConfigError(`${source}: no keys (expected ID:BASE64_KEY[,ID:BASE64_KEY…])`);
  const keys: PayloadKey[] = [];
  entries.forEach((entry, i) => {
    const at = entry.indexOf(':');
    const id = at < 0 ? '' : entry.slice(0, at).trim();
    const material = at < 0 ? '' : entry.slice(at + 1).trim();
    if (!ID.test(id)) throw new ConfigError(`${source}: entry ${i + 1} must be ID:KEY with an id of letters, digits, '.', '_' or '-'`);
    const key = /^[0-9a-fA-F]{64}$/.test(material) ? Buffer.from(material, 'hex') : Buffer.from(material, 'base64');
    if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(material) && key.toString('base64').replace(/=+$/, '') !== material.replace(/=+$/, ''))) {
      throw new ConfigError(`${source}: key "${id}" must be 32 bytes (AES-256) in base64 or hex, e.g. \`openssl rand -base64 32\``);
    }
    if (keys.some((k) => k.id === id)) throw new ConfigError(`${source}: key id "${id}" appears twice`);
    keys.push({ id, key });
  });
  return keys;
}

/**
 * EVOLUTION_PAYLOAD_KEYS holds the keys, or `file:PATH` names a file holding them (a
 * mounted secret). Unset or empty: payloads are not encrypted. The console's session keys
 * (EVOLUTION_CONSOLE_SESSION_KEYS) are read the same way (`variable`).
 */
export function loadPayloadKeys(value: string | undefined, variable = 'EVOLUTION_PAYLOAD_KEYS'): PayloadKey[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!value.startsWith('file:')) return parsePayloadKeys(value, variable);
  const path = value.slice('file:'.length);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(`${variable} (${path}): ${code === 'ENOENT' ? 'file not found' : (e as Error).message}`);
  }
  return parsePayloadKeys(text, `${variable} (${path})`);
}
