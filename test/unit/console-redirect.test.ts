import { describe, expect, it } from 'vitest';
import { sameOriginPath } from '../../console/redirect';

/** What a browser would make of a Location header: where it leads, from the console's origin. */
const landsOn = (location: string) => new URL(location.replace(/[\t\n\r]/g, ''), 'https://console.example').host;

describe('sign-in redirect target (next)', () => {
  it('keeps a path on this site, query and fragment included', () => {
    expect(sameOriginPath('/revisions/rev-1')).toBe('/revisions/rev-1');
    expect(sameOriginPath('/activity?scope=apps/shop&action=approve#top')).toBe('/activity?scope=apps/shop&action=approve#top');
    expect(sameOriginPath(undefined)).toBe('/');
    expect(sameOriginPath('')).toBe('/');
  });

  it('the review example: a tab after the first slash (next=%2F%09%2Fevil.example%2Fphish) stays on this site', () => {
    const next = decodeURIComponent('%2F%09%2Fevil.example%2Fphish');
    expect(landsOn(next)).toBe('evil.example'); // what the browser did with the old answer
    expect(sameOriginPath(next)).toBe('/');
  });

  it('refuses control characters, backslashes, scheme-relative and absolute forms, and paths that normalise to one', () => {
    const hostile = [
      '//evil.example/',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r/evil.example',
      '/\u0000/evil.example',
      '/\u007f/x',
      'https://evil.example/',
      'javascript:alert(1)',
      'evil.example',
      '/..//evil.example',
      '/.//evil.example',
      `/${'a'.repeat(3000)}`,
    ];
    for (const next of hostile) {
      const answer = sameOriginPath(next);
      expect(answer, JSON.stringify(next)).toBe('/');
    }
  });

  it('whatever it answers leads to this site', () => {
    const samples = ['/%2F%2Fevil.example', '/%09/evil.example', '/\u3000/evil.example', '/a/../b', '/?next=//evil.example', '/#//evil.example', '/@evil.example'];
    for (const next of samples) expect(landsOn(sameOriginPath(next)), next).toBe('console.example');
  });
});
