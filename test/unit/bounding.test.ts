import { describe, expect, it } from 'vitest';
import { boundText, truncateHead, utf8ByteLength } from '../../core/skills';

const bytes = (s: string) => new TextEncoder().encode(s).length;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('utf8ByteLength', () => {
  it('matches TextEncoder, including lone surrogates', () => {
    for (const s of ['', 'abc', 'é', '日本', '😀', 'a😀b', '\uD800x', 'x\uDC00', '👩‍👩‍👧']) expect(utf8ByteLength(s)).toBe(bytes(s));
  });
});

describe('boundText', () => {
  it('returns text that fits unchanged', () => {
    expect(boundText('hello', 5)).toBe('hello');
    expect(boundText('', 0)).toBe('');
  });

  it('keeps head and tail with a marker and never exceeds the limit', () => {
    const text = `HEAD-${'x'.repeat(10_000)}-TAIL`;
    const out = boundText(text, 200);
    expect(bytes(out)).toBeLessThanOrEqual(200);
    expect(out.startsWith('HEAD-')).toBe(true);
    expect(out.endsWith('-TAIL')).toBe(true);
    expect(out).toMatch(/\.\.\.\[\d+ bytes truncated\]\.\.\./);
    const omitted = Number(/\[(\d+) bytes truncated\]/.exec(out)![1]);
    const marker = /\n\.\.\.\[\d+ bytes truncated\]\.\.\.\n/.exec(out)![0];
    expect(omitted).toBe(bytes(text) - (bytes(out) - bytes(marker)));
  });

  it('never splits an emoji surrogate pair or a CJK character', () => {
    const emoji = '😀'.repeat(300);
    const cjk = '漢字かな'.repeat(300);
    for (const text of [emoji, cjk, `a${emoji}b${cjk}`]) {
      for (let limit = 40; limit < 140; limit++) {
        const out = boundText(text, limit);
        expect(bytes(out)).toBeLessThanOrEqual(limit);
        expect(LONE_SURROGATE.test(out)).toBe(false);
        expect(out).not.toContain('\uFFFD');
        const [head, tail] = out.split(/\n\.\.\.\[\d+ bytes truncated\]\.\.\.\n/);
        expect(text.startsWith(head)).toBe(true);
        expect(text.endsWith(tail)).toBe(true);
      }
    }
  });

  it('gives most of the budget to the head by default and honours headRatio', () => {
    const text = 'h'.repeat(5000) + 't'.repeat(5000);
    const out = boundText(text, 1000);
    const [head, tail] = out.split(/\n\.\.\.\[\d+ bytes truncated\]\.\.\.\n/);
    expect(head.length).toBeGreaterThan(tail.length * 2);
    const even = boundText(text, 1000, { headRatio: 0.5 }).split(/\n\.\.\.\[\d+ bytes truncated\]\.\.\.\n/);
    expect(Math.abs(even[0].length - even[1].length)).toBeLessThanOrEqual(1);
  });

  it('keeps only a UTF-8 safe head when the limit cannot hold the marker', () => {
    const out = boundText('😀😀😀😀😀😀😀😀😀😀', 10);
    expect(out).toBe('😀😀');
    expect(() => boundText('x', -1)).toThrow(RangeError);
    expect(() => boundText('x', 1.5)).toThrow(RangeError);
  });
});

describe('truncateHead', () => {
  it('keeps the head within the limit, marker included, UTF-8 safe', () => {
    const text = '😀'.repeat(100);
    const out = truncateHead(text, 50);
    expect(bytes(out)).toBeLessThanOrEqual(50);
    expect(out.endsWith('\n...[truncated]')).toBe(true);
    expect(LONE_SURROGATE.test(out)).toBe(false);
    expect(truncateHead('short', 50)).toBe('short');
  });
});
