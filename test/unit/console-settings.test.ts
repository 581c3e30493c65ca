import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleSettingsFromEnv } from '../../console/settings';
import { tokenSha256 } from '../../console/users';

function file(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'console-settings-')), 'users.json');
  writeFileSync(path, content);
  return path;
}

describe('console settings', () => {
  const users = file(JSON.stringify([{ name: 'maria', role: 'approver', scopes: ['apps/shop'], tokenSha256: tokenSha256('t') }]));

  it('binds to loopback on 8080 unless told otherwise', () => {
    expect(consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: users })).toMatchObject({ host: '127.0.0.1', port: 8080, oidc: undefined });
    expect(consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: users }, { host: '0.0.0.0', port: '9000' })).toMatchObject({ host: '0.0.0.0', port: 9000 });
  });

  it('says what is wrong: no way to sign in, a bad port, a half OIDC setup, an unreadable or invalid users file', () => {
    expect(() => consoleSettingsFromEnv({})).toThrow(/set EVOLUTION_CONSOLE_USERS/);
    expect(() => consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: users }, { port: 'http' })).toThrow(/--port must be a port number/);
    expect(() => consoleSettingsFromEnv({ EVOLUTION_CONSOLE_OIDC_ISSUER: 'https://idp' })).toThrow(/needs both/);
    expect(() => consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: '/nonexistent/users.json' })).toThrow(/cannot read the console users file/);
    expect(() => consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: file('{not json') })).toThrow(/is not JSON/);
    expect(() => consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: file('[{"name":"x","role":"viewer","scopes":[],"tokenSha256":"12"}]') })).toThrow(/0\.tokenSha256/);
  });

  it('OIDC alone is enough: issuer, https JWKS URL and audience', () => {
    expect(
      consoleSettingsFromEnv({ EVOLUTION_CONSOLE_OIDC_ISSUER: 'https://idp', EVOLUTION_CONSOLE_OIDC_JWKS_URL: 'https://idp/jwks', EVOLUTION_CONSOLE_OIDC_AUDIENCE: 'console' })
        .oidc,
    ).toEqual({
      issuer: 'https://idp',
      jwksUrl: 'https://idp/jwks',
      audience: 'console',
    });
  });

  it('OIDC refuses a JWKS URL that is not https, and a setup without an audience', () => {
    const oidc = { EVOLUTION_CONSOLE_OIDC_ISSUER: 'https://idp', EVOLUTION_CONSOLE_OIDC_AUDIENCE: 'console' };
    expect(() => consoleSettingsFromEnv({ ...oidc, EVOLUTION_CONSOLE_OIDC_JWKS_URL: 'http://idp/jwks' })).toThrow(/EVOLUTION_CONSOLE_OIDC_JWKS_URL must be an https URL/);
    expect(() => consoleSettingsFromEnv({ ...oidc, EVOLUTION_CONSOLE_OIDC_JWKS_URL: 'http://127.0.0.1:9/jwks' })).toThrow(/must be an https URL/);
    expect(() => consoleSettingsFromEnv({ EVOLUTION_CONSOLE_OIDC_ISSUER: 'https://idp', EVOLUTION_CONSOLE_OIDC_JWKS_URL: 'https://idp/jwks' })).toThrow(
      /needs EVOLUTION_CONSOLE_OIDC_AUDIENCE/,
    );
    expect(() => consoleSettingsFromEnv({ ...oidc, EVOLUTION_CONSOLE_OIDC_JWKS_URL: 'https://idp/jwks', EVOLUTION_CONSOLE_OIDC_CA_FILE: '/nonexistent/ca.pem' })).toThrow(
      /EVOLUTION_CONSOLE_OIDC_CA_FILE \(\/nonexistent\/ca.pem\): file not found/,
    );
  });

  it('session keys and trusted proxies: read like the payload keys, a bad entry named', () => {
    const key = randomBytes(32).toString('base64');
    const settings = consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: users, EVOLUTION_CONSOLE_SESSION_KEYS: `s2:${key},s1:${randomBytes(32).toString('hex')}` });
    expect(settings.sessionKeys?.map((k) => k.id)).toEqual(['s2', 's1']);
    expect(consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: users }).sessionKeys).toBeUndefined();
    expect(() => consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: users, EVOLUTION_CONSOLE_SESSION_KEYS: 's1:short' })).toThrow(
      /EVOLUTION_CONSOLE_SESSION_KEYS: key "s1" must be 32 bytes/,
    );
    expect(consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: users, EVOLUTION_CONSOLE_TRUSTED_PROXIES: '10.0.0.0/8, loopback,fd00::/8' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      'loopback',
      'fd00::/8',
    ]);
    expect(() => consoleSettingsFromEnv({ EVOLUTION_CONSOLE_USERS: users, EVOLUTION_CONSOLE_TRUSTED_PROXIES: 'proxy.internal' })).toThrow(/EVOLUTION_CONSOLE_TRUSTED_PROXIES: /);
  });
});
