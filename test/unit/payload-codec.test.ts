import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { AesGcmPayloadCodec, ENCRYPTED_ENCODING, KEY_ID_METADATA, PayloadDecryptionError } from '../../codec/aes-gcm-codec';
import { parsePayloadKeys } from '../../codec/keys';
import { ConfigError } from '../../core';
import { UNAUTHENTICATED_PAYLOAD_MARK } from '../../core/payload-authenticity';
import { loadConfig } from '../../runtime/config';
import { createDataConverter, createPayloadCodec, PayloadDecryptionError as ClientDecryptionError } from '../../client/index';

const key = () => randomBytes(32);
const b64 = (b: Buffer) => b.toString('base64');
const text = (b?: Uint8Array | null) => Buffer.from(b ?? []).toString('utf8');

describe('payload keys', () => {
  it('parses ID:KEY lists in base64 or hex, first key first', () => {
    const a = key();
    const b = key();
    const keys = parsePayloadKeys(`new:${b64(a)},\n old:${b.toString('hex')}\n# a comment`);
    expect(keys.map((k) => k.id)).toEqual(['new', 'old']);
    expect(Buffer.from(keys[0]!.key).equals(a)).toBe(true);
    expect(Buffer.from(keys[1]!.key).equals(b)).toBe(true);
  });

  it('rejects short keys, bad ids, duplicates and empty lists without echoing key material', () => {
    const short = b64(randomBytes(16));
    expect(() => parsePayloadKeys(`k1:${short}`)).toThrow(ConfigError);
    expect(() => parsePayloadKeys(`k1:${short}`)).toThrow(/key "k1" must be 32 bytes/);
    try {
      parsePayloadKeys(`k1:${short}`);
    } catch (e) {
      expect((e as Error).message).not.toContain(short);
    }
    expect(() => parsePayloadKeys(b64(key()))).toThrow(/entry 1 must be ID:KEY/);
    expect(() => parsePayloadKeys(`a:${b64(key())},a:${b64(key())}`)).toThrow(/"a" appears twice/);
    expect(() => parsePayloadKeys(' , ')).toThrow(/no keys/);
  });
});

describe('AES-256-GCM payload codec', () => {
  const secret = 'transcript: my password is hunter2';
  const payload = defaultPayloadConverter.toPayload({ note: secret })!;

  it('encrypts the whole payload, tags it with the key id, and decodes it back', async () => {
    const codec = new AesGcmPayloadCodec([{ id: 'k1', key: key() }]);
    const [enc] = await codec.encode([payload]);
    expect(text(enc!.metadata!.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(text(enc!.metadata![KEY_ID_METADATA])).toBe('k1');
    expect(Buffer.from(enc!.data!).includes(Buffer.from('hunter2'))).toBe(false);
    expect(Buffer.from(enc!.data!).includes(Buffer.from('json/plain'))).toBe(false);
    const [dec] = await codec.decode([enc!]);
    expect(defaultPayloadConverter.fromPayload(dec!)).toEqual({ note: secret });
    // Two encodings of the same payload differ (fresh IV).
    const [again] = await codec.encode([payload]);
    expect(Buffer.from(again!.data!).equals(Buffer.from(enc!.data!))).toBe(false);
  });

  it('rotation: a new first key encrypts, the old one still decrypts what it wrote', async () => {
    const old = { id: 'old', key: key() };
    const [byOld] = await new AesGcmPayloadCodec([old]).encode([payload]);
    const rotated = new AesGcmPayloadCodec([{ id: 'new', key: key() }, old]);
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([byOld!]))[0]!)).toEqual({ note: secret });
    const [byNew] = await rotated.encode([payload]);
    expect(text(byNew!.metadata![KEY_ID_METADATA])).toBe('new');
  });

  it('a missing or wrong key is a clear error naming the key id', async () => {
    const [enc] = await new AesGcmPayloadCodec([{ id: 'k1', key: key() }]).encode([payload]);
    await expect(new AesGcmPayloadCodec([{ id: 'k2', key: key() }]).decode([enc!])).rejects.toThrow(/encrypted with key "k1", which is not among the configured keys \(k2\)/);
    const wrong = new AesGcmPayloadCodec([{ id: 'k1', key: key() }]);
    await expect(wrong.decode([enc!])).rejects.toThrow(PayloadDecryptionError);
    await expect(wrong.decode([enc!])).rejects.toThrow(/could not be decrypted with key "k1"/);
  });

  it('tampering is detected, and unencrypted payloads pass through decode', async () => {
    const codec = new AesGcmPayloadCodec([{ id: 'k1', key: key() }]);
    const [enc] = await codec.encode([payload]);
    const data = Buffer.from(enc!.data!);
    data[20] = data[20]! ^ 1;
    await expect(codec.decode([{ ...enc!, data }])).rejects.toThrow(/altered/);
    const relabelled = { ...enc!, metadata: { ...enc!.metadata, [KEY_ID_METADATA]: Buffer.from('k1x') } };
    await expect(
      new AesGcmPayloadCodec([
        { id: 'k1', key: key() },
        { id: 'k1x', key: key() },
      ]).decode([relabelled]),
    ).rejects.toThrow(PayloadDecryptionError);
    expect(await codec.decode([payload])).toEqual([payload]);
  });
});

describe('strict payload mode', () => {
  const plain = defaultPayloadConverter.toPayload({ decision: 'approve' })!;

  it('marks a plaintext payload as unauthenticated instead of passing it on as if it were ours', async () => {
    const strict = new AesGcmPayloadCodec([{ id: 'k1', key: key() }], { strict: true });
    const [marked] = await strict.decode([plain]);
    expect(marked!.metadata?.[UNAUTHENTICATED_PAYLOAD_MARK]).toBeDefined();
    expect(defaultPayloadConverter.fromPayload(marked!)).toEqual({ decision: 'approve' }); // still readable, e.g. by a query
    const [ours] = await strict.decode(await strict.encode([plain]));
    expect(ours!.metadata?.[UNAUTHENTICATED_PAYLOAD_MARK]).toBeUndefined();
    const [passed] = await new AesGcmPayloadCodec([{ id: 'k1', key: key() }]).decode([plain]);
    expect(passed).toBe(plain);
  });

  it('still throws for a payload that claims encryption under an unknown or wrong key (an operator fixes the keys)', async () => {
    const strict = new AesGcmPayloadCodec([{ id: 'k1', key: key() }], { strict: true });
    const [other] = await new AesGcmPayloadCodec([{ id: 'k1', key: key() }]).encode([plain]);
    await expect(strict.decode([other!])).rejects.toThrow(PayloadDecryptionError);
  });

  it('EVOLUTION_PAYLOAD_STRICT: on with keys unless false; anything else is refused', () => {
    const keys = `k1:${b64(key())}`;
    const env = { EVOLUTION_IGNORE_LOCAL_INFRA: '1', EVOLUTION_PAYLOAD_KEYS: keys };
    expect(loadConfig(env).payloadStrict).toBe(true);
    expect(loadConfig({ ...env, EVOLUTION_PAYLOAD_STRICT: 'false' }).payloadStrict).toBe(false);
    expect(loadConfig({ EVOLUTION_IGNORE_LOCAL_INFRA: '1' }).payloadStrict).toBeUndefined();
    expect(() => loadConfig({ ...env, EVOLUTION_PAYLOAD_STRICT: 'sometimes' })).toThrow(/EVOLUTION_PAYLOAD_STRICT must be true or false/);
  });
});

describe('the client library exports the workers codec', () => {
  it('createDataConverter({ keys }) takes EVOLUTION_PAYLOAD_KEYS as the workers have it and round-trips with their codec', async () => {
    const keys = `k-platform:${b64(key())}`;
    const [clientCodec] = createDataConverter({ keys }).payloadCodecs!;
    const workersCodec = new AesGcmPayloadCodec(parsePayloadKeys(keys), { strict: true });
    const payload = defaultPayloadConverter.toPayload({ comment: 'approved' });
    const [sent] = await clientCodec!.encode([payload]);
    expect(text(sent!.metadata!.encoding)).toBe(ENCRYPTED_ENCODING);
    const [received] = await workersCodec.decode([sent!]);
    expect(defaultPayloadConverter.fromPayload(received!)).toEqual({ comment: 'approved' });
    const [back] = await createPayloadCodec({ keys: parsePayloadKeys(keys) }).decode(await workersCodec.encode([payload]));
    expect(defaultPayloadConverter.fromPayload(back!)).toEqual({ comment: 'approved' });
  });

  it('refuses missing keys with an error naming what it expected, and a foreign key by its id', async () => {
    expect(() => createPayloadCodec({ keys: '' })).toThrow(/payload keys: none given/);
    expect(() => createPayloadCodec({ keys: [] })).toThrow(ConfigError);
    const [foreign] = await new AesGcmPayloadCodec(parsePayloadKeys(`other:${b64(key())}`)).encode([defaultPayloadConverter.toPayload(1)]);
    await expect(createPayloadCodec({ keys: `mine:${b64(key())}` }).decode([foreign!])).rejects.toThrow(ClientDecryptionError);
  });
});
