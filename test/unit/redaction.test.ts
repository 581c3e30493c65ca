import { describe, expect, it } from 'vitest';
import { REDACTED, findSecrets, isSensitiveName, redactSecrets } from '../../core/skills';

const PEM = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEAx3x9abcdefghijklmnopqrstuv', 'ZmFrZWtleW1hdGVyaWFsZm9ydGVzdHM=', '-----END RSA PRIVATE KEY-----'].join('\n');
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('redactSecrets', () => {
  const cases: Array<[string, string, string]> = [
    ['OpenAI-style key', 'use sk-proj-abcDEF1234567890xyz now', 'use [REDACTED] now'],
    ['AWS access key id', 'key AKIAIOSFODNN7EXAMPLE here', 'key [REDACTED] here'],
    ['bearer token', 'curl -H "Authorization: Bearer abc.def-ghi_jkl012345"', 'curl -H "Authorization: Bearer [REDACTED]"'],
    ['bare bearer', 'sent bearer abcdefghijklmnop123', 'sent bearer [REDACTED]'],
    ['password=', 'login with password=hunter2&user=bob', 'login with password=[REDACTED]&user=bob'],
    ['token:', 'token: ghs-not-a-real-format', 'token: [REDACTED]'],
    ['secret key/value with quotes', "client_secret = 'abc123'", "client_secret = '[REDACTED]'"],
    ['JSON field', '{"api_key": "k-123", "model": "gpt"}', '{"api_key": "[REDACTED]", "model": "gpt"}'],
    ['env var', 'export GITHUB_TOKEN=ghp_abc', 'export GITHUB_TOKEN=[REDACTED]'],
    ['CLI flag', 'tool --password s3cr3t --verbose', 'tool --password [REDACTED] --verbose'],
    ['JWT', `jwt ${JWT} end`, 'jwt [REDACTED] end'],
    ['URL credentials', 'git clone https://bob:pa55w0rd@git.example.com/r.git', 'git clone https://[REDACTED]@git.example.com/r.git'],
    ['GitHub token', `t ghp_${'a1'.repeat(18)}`, 't [REDACTED]'],
    ['PEM block', `before\n${PEM}\nafter`, 'before\n[REDACTED]\nafter'],
  ];
  for (const [label, input, expected] of cases) {
    it(`redacts ${label}`, () => expect(redactSecrets(input)).toBe(expected));
  }

  it('redacts a private key block cut open by truncation, to the end of the text', () => {
    const open = `x\n${PEM.split('\n').slice(0, 2).join('\n')}`;
    expect(redactSecrets(open)).toBe('x\n[REDACTED]');
    const orphanTail = `intro line\n${PEM.split('\n').slice(2).join('\n')}\nafter`;
    expect(redactSecrets(orphanTail)).toBe('intro line\n[REDACTED]\nafter');
  });

  it('leaves ordinary text alone', () => {
    const text = 'max_tokens=100, keyboard: US, https://example.com/a?b=c, the secret sauce is salt, task-abcdefghij';
    expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets('monkey=banana key: value')).toBe('monkey=banana key: value');
  });

  it('is idempotent', () => {
    for (const [, input] of cases) {
      const once = redactSecrets(input);
      expect(redactSecrets(once)).toBe(once);
    }
  });

  // Catastrophic backtracking on these inputs took 40-84 s before; the test's timeout is a
  // hang guard, not a speed assertion (a loaded CI machine must not make it flaky).
  const HANG_GUARD = { timeout: 30_000 };

  it('handles large input without backtracking', HANG_GUARD, () => {
    const big = `${'-----BEGIN PRIVATE KEY-----\n'.repeat(2000)}${'password=x '.repeat(20_000)}`;
    expect(redactSecrets(big).startsWith(REDACTED)).toBe(true);
  });

  it('stays linear on long dotted, dashed and URL-like runs', HANG_GUARD, () => {
    for (const big of [
      'a.'.repeat(300_000),
      'x-'.repeat(300_000),
      `https://${'h.'.repeat(200_000)}`,
      `"k${'_'.repeat(300_000)}`,
      'eyJ-'.repeat(100_000),
      'a='.repeat(100_000),
      'k:'.repeat(100_000),
      '?a=b'.repeat(50_000),
    ]) {
      expect(redactSecrets(big)).toBe(big);
    }
  });
});

describe('isSensitiveName', () => {
  it('recognises credential names, not look-alikes', () => {
    for (const n of ['password', 'DB_PASSWORD', 'apiKey', 'APIKey', 'x-api-key', 'access_token', 'client-secret', 'Authorization', '--token']) {
      expect(isSensitiveName(n)).toBe(true);
    }
    for (const n of ['max_tokens', 'keyboard', 'key', 'monkey', 'author', 'tokenizer_name']) expect(isSensitiveName(n)).toBe(false);
  });
});

describe('findSecrets', () => {
  it('reports high-confidence literals by rule name', () => {
    expect(findSecrets('AKIAIOSFODNN7EXAMPLE')).toEqual(['aws_access_key_id']);
    expect(findSecrets(`k=sk-${'A1b2'.repeat(6)}`)).toContain('openai_key');
    expect(findSecrets(PEM)).toContain('private_key_block');
    expect(findSecrets(`token ${JWT}`)).toEqual(['jwt']);
    expect(findSecrets('api_key=abc123def456ghi789')).toEqual(['key_value']);
  });

  it('does not flag placeholders or redacted values', () => {
    for (const text of [
      'password=$DB_PASSWORD',
      'api_key: <your key here>',
      'token=[REDACTED]',
      'set the api key header',
      'password: ********',
      'Authorization: Bearer {{token}}',
    ]) {
      expect(findSecrets(text)).toEqual([]);
    }
  });
});

describe('redaction gaps found by canary secrets (issue 9, item 2)', () => {
  const AKIA = 'AKIAIOSFODNN7EXAMPLE';
  const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
  const cases: Array<[string, string, string, string]> = [
    ['label: NAME=secret', 'deploy failed: DB_PASSWORD=hunter2canary', 'deploy failed: DB_PASSWORD=[REDACTED]', 'hunter2canary'],
    ['label: NAME=secret after more text', 'error: retry 3: API_TOKEN=tok3ncanary9', 'error: retry 3: API_TOKEN=[REDACTED]', 'tok3ncanary9'],
    ['URL query api_key', 'GET https://api.example.com/v1?city=Paris&api_key=k3ycanary77 200', 'GET https://api.example.com/v1?city=Paris&api_key=[REDACTED] 200', 'k3ycanary77'],
    ['URL query access_token', 'see https://x.example/cb?access_token=acc3sscanary#frag', 'see https://x.example/cb?access_token=[REDACTED]#frag', 'acc3sscanary'],
    [
      'URL query sig',
      'blob https://acct.blob.core.windows.net/c/f?sv=2020&sig=s1gcanaryAbc%3D&se=1',
      'blob https://acct.blob.core.windows.net/c/f?sv=2020&sig=[REDACTED]&se=1',
      's1gcanaryAbc',
    ],
    ['AKIA id glued to a word', `tool deploy_${AKIA} ran`, 'tool deploy_[REDACTED] ran', AKIA],
    ['bare AWS secret next to an AKIA id', `creds ${AKIA} ${AWS_SECRET} ok`, 'creds [REDACTED] [REDACTED] ok', AWS_SECRET],
    ['bare AWS secret before an AKIA id', `creds ${AWS_SECRET}:${AKIA}`, 'creds [REDACTED]:[REDACTED]', AWS_SECRET],
  ];
  for (const [label, input, expected, canary] of cases) {
    it(`redacts ${label}`, () => {
      expect(redactSecrets(input)).toBe(expected);
      expect(redactSecrets(redactSecrets(input))).toBe(expected);
    });
    it(`the Safety gate's finder flags ${label}`, () => {
      expect(findSecrets(input).length, canary).toBeGreaterThan(0);
    });
  }

  it('keeps a non-secret key=value chain and a git sha next to nothing sensitive', () => {
    for (const text of ['status: code=200', 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 merged', 'https://example.com/a?b=c&page=2']) {
      expect(redactSecrets(text)).toBe(text);
      expect(findSecrets(text)).toEqual([]);
    }
  });
});
