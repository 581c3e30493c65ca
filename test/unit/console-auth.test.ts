import { describe, expect, it } from 'vitest';
import { html } from 'hono/html';
import { LoginRateLimiter } from '../../console/rate-limit';
import { sameSecret, SessionStore } from '../../console/sessions';
import { canAct, canSee, parseUsers, scopeMatches, tokenSha256, userForToken } from '../../console/users';
import { diffView } from '../../console/views/diff';

const users = parseUsers([
  { name: 'maria', role: 'approver', scopes: ['apps/shop', 'users/shop/*'], tokenSha256: tokenSha256('maria-token') },
  { name: 'vic', role: 'viewer', scopes: ['global'], tokenSha256: tokenSha256('vic-token') },
]);

describe('console users file', () => {
  it('finds a user by token (hash compare) and never by the hash itself', () => {
    expect(userForToken(users, 'maria-token')).toEqual({ name: 'maria', role: 'approver', scopes: ['apps/shop', 'users/shop/*'] });
    expect(userForToken(users, 'vic-token')?.name).toBe('vic');
    expect(userForToken(users, tokenSha256('maria-token'))).toBeUndefined();
    expect(userForToken(users, '')).toBeUndefined();
  });

  it('rejects a malformed file with the path of each problem', () => {
    expect(() => parseUsers([{ name: 'a', role: 'root', scopes: ['apps/*/x'], tokenSha256: 'abc' }])).toThrow(
      /0\.role.*0\.scopes\.0: a scope pattern matches whole segments.*0\.tokenSha256: tokenSha256 must be 64 hex digits/s,
    );
    expect(() => parseUsers([users[0], users[0]])).toThrow(/user name "maria" appears twice/);
    expect(() => parseUsers({})).toThrow(/invalid users file/);
  });

  it('a pattern with "*" inside a segment is refused, so it is never read as a prefix (apps/shop* would match apps/shopping)', () => {
    const withPattern = (p: string) => () => parseUsers([{ name: 'a', role: 'viewer', scopes: [p], tokenSha256: tokenSha256('t') }]);
    for (const bad of ['apps/shop*', 'users/shop*/*', 'apps/*shop', 'users/*/ana', '**', 'apps/**'])
      expect(withPattern(bad), bad).toThrow(/a scope pattern matches whole segments/);
    for (const good of ['*', 'apps/*', 'users/*', 'users/shop/*', 'apps/shop', 'global']) expect(withPattern(good), good).not.toThrow();
    expect(scopeMatches('apps/shop*', 'apps/shopping')).toBe(false);
  });

  it('scope patterns match whole segments: exact keys, a trailing /* for every key below, * for all', () => {
    expect(scopeMatches('apps/*', 'apps/shop')).toBe(true);
    expect(scopeMatches('apps/*', 'apps')).toBe(false);
    expect(scopeMatches('users/*', 'users/shop/ana')).toBe(true);
    expect(scopeMatches('users/shop/*', 'users/shopping/ana')).toBe(false);
    expect(scopeMatches('users/shop/*', 'users/shop')).toBe(false);
    expect(scopeMatches('apps/shop', 'apps/shop')).toBe(true);
    expect(scopeMatches('apps/shop', 'apps/shop2')).toBe(false);
    expect(scopeMatches('users/shop/*', 'users/shop/ana')).toBe(true);
    expect(scopeMatches('users/shop/*', 'users/shopping/ana')).toBe(false);
    expect(scopeMatches('*', 'global')).toBe(true);
    expect(canSee(userForToken(users, 'maria-token')!, 'global')).toBe(false);
    expect(canSee(userForToken(users, 'vic-token')!, 'global')).toBe(true);
  });

  it('viewers cannot act; approvers and admins can', () => {
    expect(canAct({ name: 'v', role: 'viewer', scopes: [] })).toBe(false);
    expect(canAct({ name: 'a', role: 'approver', scopes: [] })).toBe(true);
    expect(canAct({ name: 'd', role: 'admin', scopes: [] })).toBe(true);
  });
});

describe('console sessions and login limit', () => {
  it('sessions expire; secrets compare exactly', () => {
    const store = new SessionStore(1000);
    const s = store.create({ name: 'maria', role: 'approver', scopes: [] }, 0);
    expect(store.get(s.id, 999)?.user.name).toBe('maria');
    expect(store.get(s.id, 1000)).toBeUndefined();
    expect(sameSecret(s.csrf, s.csrf)).toBe(true);
    expect(sameSecret(s.csrf, `${s.csrf}x`)).toBe(false);
    expect(sameSecret(undefined, undefined)).toBe(false);
  });

  it('allows max attempts per window per address, then says how long to wait; success clears the count', () => {
    const limiter = new LoginRateLimiter({ max: 2, windowMs: 10_000 });
    expect(limiter.attempt('a', 0).allowed).toBe(true);
    expect(limiter.attempt('a', 1000).allowed).toBe(true);
    expect(limiter.attempt('a', 2000)).toEqual({ allowed: false, retryAfterSeconds: 8 });
    expect(limiter.attempt('b', 2000).allowed).toBe(true);
    expect(limiter.attempt('a', 10_001).allowed).toBe(true); // the first attempt left the window
    limiter.succeeded('a');
    expect(limiter.attempt('a', 10_002).allowed).toBe(true);
  });
});

describe('console views', () => {
  it('escape untrusted text, diff lines included', async () => {
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
    expect(String(await html`<td>${hostile}</td>`)).toBe('<td>&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</td>');
    const out = String(await diffView(`--- a\n+++ b\n@@ -1,1 +1,1 @@\n-old\n+${hostile}\n`));
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('<img');
    expect(out).toContain('<span class="add">+&lt;script&gt;');
  });
});
