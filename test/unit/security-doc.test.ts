import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../cli/commands';
import { INPUT_LIMITS, idSegment, shortHash } from '../../core';

// Issue 31 item 6: docs/security.md is the threat model; what it states about bounds, keys
// and commands is checked against the code, so it cannot drift from it.
const doc = (name: string) => readFileSync(join(__dirname, '..', '..', 'docs', name), 'utf8');
const security = doc('security.md');

describe('docs/security.md', () => {
  it('covers every boundary, where secrets live, tenant isolation, input bounds and reporting', () => {
    for (const heading of [
      '## Boundaries at a glance',
      '## Where secrets live',
      '## Tenant isolation',
      '## Input bounds',
      '## Reporting a problem',
      '## Console and API',
      '## Codec server and strict payloads',
    ])
      expect(security).toContain(`\n${heading}\n`);
    for (const boundary of ['platform contract input', 'reviewer output', '**S3**', '**Temporal**', 'console and API', 'codec server']) expect(security).toContain(boundary);
  });

  it('names settings that exist', () => {
    const configuration = doc('configuration.md');
    for (const name of security.match(/`(?:EVOLUTION|OPENAI|S3|TEMPORAL)_[A-Z_]+\*?`/g) ?? [])
      expect(configuration, name).toContain(name.endsWith('*`') ? name.slice(0, -2) : name); // a `PREFIX_*` family: its prefix
  });

  it('states the input bounds the code enforces', () => {
    const mib = INPUT_LIMITS.maxPayloadBytes / (1024 * 1024);
    for (const text of [security, doc('platform-contract.md')]) {
      expect(text).toContain(`${mib} MiB`);
      expect(text).toContain(INPUT_LIMITS.maxEvents.toLocaleString('en-US'));
      expect(text).toContain(INPUT_LIMITS.maxStringChars.toLocaleString('en-US'));
    }
    expect(security).toContain(`${INPUT_LIMITS.maxToolCalls} tool calls per message`);
    expect(doc('platform-contract.md')).toMatch(new RegExp(`\\| tool calls in one message +\\| ${INPUT_LIMITS.maxToolCalls} +\\|`));
  });

  it('describes the scope-key mapping and the migration command as they are', () => {
    expect(security).toContain('`id-{first 16 hex of sha256(UTF-8 id)}`');
    expect(idSegment('ana@example.com')).toBe(`id-${shortHash('ana@example.com')}`);
    expect(idSegment('id-8e43')).not.toBe('id-8e43');
    expect(security).toContain('evolution migrate scope-keys [--dry-run] [--under PREFIX]');
    expect(COMMANDS.migrate?.arguments?.[0]?.choices).toEqual(['scope-keys']);
    expect(Object.keys(COMMANDS.migrate?.options ?? {})).toEqual(['dry-run', 'under']);
  });
});
