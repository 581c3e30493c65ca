import { describe, expect, it } from 'vitest';
import { html } from 'hono/html';
import { randomBytes } from 'node:crypto';
import { limiterKey } from '../../console/client-address';
import { CredentialLimiter } from '../../console/rate-limit';
import { sameSecret, SessionCookies, SessionTooLargeError } from '../../console/sessions';
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

describe('console session cookies', () => {
  const key = (id: string) => ({ id, key: randomBytes(32) });
  const k1 = key('k1');
  const k2 = key('k2');
  const maria = { name: 'maria', role: 'approver' as const, scopes: ['apps/shop'] };
  const fromFile = (name: string) => (name === 'maria' ? maria : undefined);

  it('a sealed session opens on any holder of the key (another replica, a restarted process) and nowhere else', async () => {
    const replicaA = new SessionCookies([k1], fromFile);
    const replicaB = new SessionCookies([k1], fromFile);
    const s = replicaA.create(maria, 'users-file', undefined, 0);
    const cookie = await replicaA.seal(s);
    expect(cookie).not.toContain('maria'); // encrypted, not only signed
    expect(await replicaB.open(cookie, 1000)).toEqual(s);
    expect(await new SessionCookies([k2], fromFile).open(cookie, 1000)).toBeUndefined();
  });

  it('refuses a tampered, truncated, expired or foreign cookie', async () => {
    const sessions = new SessionCookies([k1], fromFile, 1000);
    const cookie = await sessions.seal(sessions.create(maria, 'users-file', undefined, Date.now()));
    const parts = cookie.split('.');
    const flipped = [...parts];
    // A character in the middle of the ciphertext: all six of its bits are data. (Rewriting the last two, as this did before,
    // sometimes wrote what was there, or changed only the last character's padding bits: the cookie opened, 1 run in ~100.)
    const middle = Math.floor(parts[3]!.length / 2);
    flipped[3] = `${parts[3]!.slice(0, middle)}${parts[3]![middle] === 'A' ? 'B' : 'A'}${parts[3]!.slice(middle + 1)}`;
    expect(await sessions.open(flipped.join('.'))).toBeUndefined();
    expect(await sessions.open(cookie.slice(0, -5))).toBeUndefined();
    expect(await sessions.open(cookie, Date.now() + 5_000)).toBeUndefined();
    expect(await sessions.open('not-a-cookie')).toBeUndefined();
    expect(await sessions.open(undefined)).toBeUndefined();
  });

  it('keys rotate: the first seals, every listed key opens', async () => {
    const old = new SessionCookies([k1], fromFile);
    const cookie = await old.seal(old.create(maria, 'users-file'));
    const rotated = new SessionCookies([k2, k1], fromFile);
    expect((await rotated.open(cookie))?.user.name).toBe('maria');
    const fresh = await rotated.seal(rotated.create(maria, 'users-file'));
    expect(await old.open(fresh)).toBeUndefined();
    expect((await new SessionCookies([k2], fromFile).open(fresh))?.user.name).toBe('maria');
  });

  it('a users-file session follows the file (a removed user is signed out); an OIDC session keeps its claims and ends with the token', async () => {
    const sessions = new SessionCookies([k1], fromFile);
    const ghost = await sessions.seal(sessions.create({ ...maria, name: 'removed' }, 'users-file'));
    expect(await sessions.open(ghost)).toBeUndefined();
    const now = Date.now();
    const oidc = sessions.create({ name: 'ana@idp', role: 'viewer', scopes: ['global'] }, 'oidc', now + 60_000, now);
    expect(oidc.expiresAt).toBe(now + 60_000);
    const cookie = await sessions.seal(oidc);
    expect((await sessions.open(cookie, now + 59_000))?.user).toEqual({ name: 'ana@idp', role: 'viewer', scopes: ['global'] });
    expect(await sessions.open(cookie, now + 61_000)).toBeUndefined();
    expect(sessions.create(maria, 'oidc', now + 365 * 86400_000, now).expiresAt).toBe(now + 8 * 3600_000);
  });

  it('the CSRF token belongs to the session; secrets compare exactly', async () => {
    const sessions = new SessionCookies([k1], fromFile);
    const a = sessions.create(maria, 'users-file');
    const b = sessions.create(maria, 'users-file');
    expect(a.csrf).not.toBe(b.csrf);
    expect((await sessions.open(await sessions.seal(a)))?.csrf).toBe(a.csrf);
    expect(sameSecret(a.csrf, a.csrf)).toBe(true);
    expect(sameSecret(a.csrf, `${a.csrf}x`)).toBe(false);
    expect(sameSecret(undefined, undefined)).toBe(false);
  });

  it('a session too large for a cookie is refused when sealed, not silently dropped by the browser', async () => {
    const sessions = new SessionCookies([k1], fromFile);
    const many = Array.from({ length: 300 }, (_, i) => `users/shop/user-${i}`);
    await expect(sessions.seal(sessions.create({ name: 'x', role: 'viewer', scopes: many }, 'oidc'))).rejects.toThrow(SessionTooLargeError);
  });
});

describe('credential limiter', () => {
  it('counts failures per key in a window, then says how long to wait; a success does not clear them', () => {
    const limiter = new CredentialLimiter({ max: 2, windowMs: 10_000 });
    expect(limiter.check('a', 0).allowed).toBe(true);
    limiter.failed('a', 0);
    limiter.failed('a', 1000);
    expect(limiter.check('a', 2000)).toEqual({ allowed: false, retryAfterSeconds: 8 });
    expect(limiter.check('b', 2000).allowed).toBe(true);
    expect(limiter.check('a', 10_001).allowed).toBe(true); // the first failure left the window
  });

  it('stays bounded in memory when many keys fail at once', () => {
    const limiter = new CredentialLimiter({ max: 1, windowMs: 60_000 }, 100);
    for (let i = 0; i < 1000; i++) limiter.failed(`k${i}`, 0);
    expect((limiter as unknown as { failures: Map<string, number[]> }).failures.size).toBeLessThanOrEqual(100);
    expect(limiter.check('k999', 1).allowed).toBe(false);
  });

  it('keys IPv6 clients by their /64 and IPv4-mapped addresses as IPv4', () => {
    expect(limiterKey('2001:db8:1:2::1')).toBe(limiterKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(limiterKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(limiterKey('2001:db8:1:3::1')).not.toBe(limiterKey('2001:db8:1:2::1'));
    expect(limiterKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(limiterKey('203.0.113.7')).toBe('203.0.113.7');
    expect(limiterKey('unknown')).toBe('unknown');
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
