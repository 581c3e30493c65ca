import { describe, expect, it } from 'vitest';
import { ScopeError, isSafeSegment, safeSegment, scopeKey, skillIdForName } from '../../core/skills';

const HOSTILE = [
  '../etc',
  'a/b',
  '..',
  '.',
  '',
  'x'.repeat(10_000),
  'ünïcödé',
  '日本',
  'a\u0000b',
  '%2e%2e',
  '%2e%2e%2fetc',
  '.hidden',
  'a\\b',
  ' lead',
  'a b',
  'x'.repeat(65),
  '-dash',
  'CON\n',
];

describe('safeSegment', () => {
  it('keeps conservative identifiers verbatim', () => {
    for (const id of ['app1', 'my-app', 'User_42', 'v1.2.3', 'A', 'x'.repeat(64)]) expect(safeSegment(id)).toBe(id);
  });

  it('turns every hostile id into a stable id-{hash} segment with no traversal', () => {
    for (const id of HOSTILE) {
      const seg = safeSegment(id);
      expect(seg).toMatch(/^id-[0-9a-f]{16}$/);
      expect(seg).not.toContain('/');
      expect(seg).not.toContain('..');
      expect(safeSegment(id)).toBe(seg);
    }
  });

  it('is idempotent and injective enough on the hostile set', () => {
    for (const id of [...HOSTILE, 'ok-id']) expect(safeSegment(safeSegment(id))).toBe(safeSegment(id));
    const segments = new Set(HOSTILE.map(safeSegment));
    expect(segments.size).toBe(HOSTILE.length);
    expect(isSafeSegment(safeSegment('../etc'))).toBe(true);
  });
});

describe('scopeKey', () => {
  it('maps the three modes', () => {
    expect(scopeKey({ mode: 'none' })).toBe('global');
    expect(scopeKey({ mode: 'app', app: 'shop' })).toBe('apps/shop');
    expect(scopeKey({ mode: 'user', app: 'shop', user: 'u-1' })).toBe('users/shop/u-1');
  });

  it('never lets a hostile app or user escape its segment', () => {
    for (const id of HOSTILE.filter((h) => h !== '')) {
      const key = scopeKey({ mode: 'user', app: id, user: id });
      const parts = key.split('/');
      expect(parts).toHaveLength(3);
      expect(parts[0]).toBe('users');
      expect(parts.slice(1).every((p) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(p) && p !== '..')).toBe(true);
    }
  });

  it('rejects a scope without the identifiers its mode needs', () => {
    expect(() => scopeKey({ mode: 'app' })).toThrow(ScopeError);
    expect(() => scopeKey({ mode: 'user', app: 'a' })).toThrow(/needs a non-empty user/);
  });
});

describe('skillIdForName', () => {
  it('slugifies readable names', () => {
    expect(skillIdForName('Weather - Multi-City')).toBe('weather-multi-city');
    expect(skillIdForName('  Recipe Cookbook: 3 Dishes!! ')).toBe('recipe-cookbook-3-dishes');
    expect(skillIdForName('Crème Brûlée Guide')).toBe('creme-brulee-guide');
  });

  it('gives names that differ only in punctuation or case the same id', () => {
    expect(skillIdForName('weather multi city')).toBe(skillIdForName('Weather - Multi-City'));
  });

  it('falls back to id-{hash} for names without ASCII letters or digits', () => {
    expect(skillIdForName('日本語')).toMatch(/^id-[0-9a-f]{16}$/);
    expect(skillIdForName('日本語')).not.toBe(skillIdForName('中文'));
    expect(skillIdForName('')).toMatch(/^id-[0-9a-f]{16}$/);
  });

  it('caps long names at 64 characters without colliding on a shared prefix', () => {
    const a = skillIdForName(`${'very long skill name '.repeat(6)}alpha`);
    const b = skillIdForName(`${'very long skill name '.repeat(6)}beta`);
    expect(a.length).toBeLessThanOrEqual(64);
    expect(a).not.toBe(b);
    expect(isSafeSegment(a)).toBe(true);
  });

  it('always yields a safe segment', () => {
    for (const name of [...HOSTILE, 'Weather', '../../etc/passwd']) expect(isSafeSegment(skillIdForName(name))).toBe(true);
  });
});
