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

  it('OIDC alone is enough', () => {
    expect(
      consoleSettingsFromEnv({ EVOLUTION_CONSOLE_OIDC_ISSUER: 'https://idp', EVOLUTION_CONSOLE_OIDC_JWKS_URL: 'https://idp/jwks', EVOLUTION_CONSOLE_OIDC_AUDIENCE: 'console' })
        .oidc,
    ).toEqual({
      issuer: 'https://idp',
      jwksUrl: 'https://idp/jwks',
      audience: 'console',
    });
  });
});
