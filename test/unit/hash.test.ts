import { describe, expect, it } from 'vitest';
import { sha256Hex as nodeSha } from '../../storage/sha256';
import { sha256Hex, shortHash } from '../../core/skills';

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it("agrees with the activities' node:crypto sha256Hex on UTF-8 input around the 55/56/64-byte padding edges", () => {
    const samples = ['é', 'lone \ud800 surrogate', '日本語', '😀 emoji', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(63), 'a'.repeat(64), 'b'.repeat(1000), '\u0000nul'];
    for (const s of samples) expect(sha256Hex(s)).toBe(nodeSha(s));
  });

  it('hashes a million bytes correctly', () => {
    expect(sha256Hex('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('shortHash is a prefix of the full digest and validates its length', () => {
    expect(shortHash('abc')).toBe('ba7816bf8f01cfea');
    expect(shortHash('abc', 24)).toHaveLength(24);
    expect(() => shortHash('abc', 0)).toThrow(RangeError);
    expect(() => shortHash('abc', 65)).toThrow(RangeError);
  });
});
