import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopeKey, ScopeKeySchema } from '../../core';
import { segmentIdFor } from '../../core/governance';
import { REPO_ROOT } from '../../infra/paths';
import { learningJobWorkflowId, sessionWorkflowId } from '../../core/workflow-ids';

// The documented forms of docs/platform-contract.md, checked against the code.
// Table cells are compared with their padding collapsed: a formatter may realign the columns.
const doc = readFileSync(join(REPO_ROOT, 'docs', 'platform-contract.md'), 'utf8')
  .replace(/ {2,}\|/g, ' |')
  .replace(/\| {2,}/g, '| ');
const schema = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', `${name}.schema.json`), 'utf8')) as { properties: Record<string, { pattern?: string }> };

describe('scope key grammar', () => {
  const published = new RegExp(schema('session-segment').properties.scopeKey!.pattern!, 'u');

  it('the published pattern accepts every key the code derives, including the id-{hash} form', () => {
    const keys = [
      scopeKey({ mode: 'none' }),
      scopeKey({ mode: 'app', app: 'shop' }),
      scopeKey({ mode: 'user', app: 'shop', user: 'ana.b_1-x' }),
      scopeKey({ mode: 'user', app: 'shop/eu', user: '../../etc' }),
      scopeKey({ mode: 'app', app: 'ü'.repeat(80) }),
    ];
    expect(keys.slice(0, 3)).toEqual(['global', 'apps/shop', 'users/shop/ana.b_1-x']);
    expect(keys[3]).toMatch(/^users\/id-[0-9a-f]{16}\/id-[0-9a-f]{16}$/);
    for (const k of keys) {
      expect(published.test(k), k).toBe(true);
      expect(ScopeKeySchema.safeParse(k).success, k).toBe(true);
    }
  });

  it('rejects free strings', () => {
    for (const k of ['', 'Global', 'apps/', 'apps/a/b', 'users/a', 'apps/../x', 'apps/.hidden', 'users/a/b/c', 'apps/a b', `apps/${'a'.repeat(65)}`, 'scopes/apps/a']) {
      expect(published.test(k), k).toBe(false);
      expect(ScopeKeySchema.safeParse(k).success, k).toBe(false);
    }
    expect(schema('rollback-request').properties.scopeKey!.pattern).toBe(schema('session-segment').properties.scopeKey!.pattern);
  });
});

describe('segment id and workflow ids', () => {
  const sha = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
  const documented = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 32);

  it('follow the documented derivation, with the documented example values', () => {
    const withOutcome = segmentIdFor({ scopeKey: 'users/shop/ana', sessionId: 's1', payloadSha256: sha, outcome: { status: 'success', score: 0.9 } });
    const without = segmentIdFor({ scopeKey: 'users/shop/ana', sessionId: 's1', payloadSha256: sha });
    expect(withOutcome).toBe(documented(`users/shop/ana\ns1\n${sha}\n{"status":"success","score":0.9}`));
    expect(without).toBe(documented(`users/shop/ana\ns1\n${sha}\nnull`));
    expect(doc).toContain(`| none | \`${without}\` |`);
    expect(doc).toContain(`| \`{"status":"success","score":0.9}\` | \`${withOutcome}\` |`);
    const jobId = learningJobWorkflowId({ scopeKey: 'users/shop/ana', sessionId: 's1', segmentId: withOutcome });
    expect(jobId).toBe(`learning/users/shop/ana/s1/${withOutcome}`);
    expect(doc).toContain(jobId);
    expect(sessionWorkflowId('users/shop/ana', 's1')).toBe('session/users/shop/ana/s1');
  });
});

describe('published result schemas', () => {
  it('job outcome and experiment result are published', () => {
    for (const name of ['job-outcome', 'experiment-result', 'session-workflow-start']) expect(doc).toContain(`schemas/${name}.schema.json`);
    expect(Object.keys(schema('job-outcome').properties)).toEqual([
      'jobId',
      'scopeKey',
      'sessionId',
      'status',
      'reason',
      'deltaEvents',
      'cursorAdvanced',
      'revisions',
      'dropped',
      'quarantinedAfter',
      'reviewerAnswer',
    ]);
  });
});
