import { beforeAll, describe, expect, it } from 'vitest';
import { nextPointer, scopeKey as scopeKeyOf } from '../../core';
import { activeKey, createSkillStore, indexChangeFor, scopeIndexKey, usageSummaryKey, type SkillStore } from '../../storage';
import { realServices, uniqueName } from '../support/infra';

// A scope's index and its usage summary are rewritten by every burst of their workflows and
// grow with the number of skills: stored without indentation they are about half the bytes,
// and a fifth of the serialisation time, of the indented form the small objects keep.
let store: SkillStore;

beforeAll(async () => {
  store = createSkillStore((await realServices(['s3'])).s3);
});

async function storedText(key: string): Promise<string> {
  const got = await store.objects.getText(key);
  if (!got || got.notModified) throw new Error(`nothing stored at ${key}`);
  return got.value;
}

describe('stored JSON form', () => {
  it("a scope's index and its usage summary are stored compact, a pointer indented", async () => {
    const scopeKey = scopeKeyOf({ mode: 'app', app: uniqueName('json-form') });
    const spec = { name: 'compact-skill', description: 'A skill', when_to_use: 'tests', steps: ['one'], pitfalls: [] };
    const pointer = nextPointer(
      undefined,
      { skillId: 'compact-skill', revisionId: 'rev-compact-0', managed: true, deleted: false, spec },
      { opId: 'op-compact', at: '2026-01-01T00:00:00.000Z' },
    );
    const written = await store.writeActive(scopeKey, 'compact-skill', pointer, null);
    await store.applyScopeIndexChanges(scopeKey, [indexChangeFor(written.pointer)]);
    await store.applyScopeRecordsBurst(scopeKey, [{ kind: 'session', usage: { jobId: 'job-compact', sessionId: 's', outcome: 'success', loads: [] } }], '2026-01-01T00:00:01.000Z');

    for (const key of [scopeIndexKey(scopeKey), usageSummaryKey(scopeKey)]) {
      const text = await storedText(key);
      expect(text, key).toBe(`${JSON.stringify(JSON.parse(text))}\n`);
    }
    expect((await store.readUsage(scopeKey))?.summary).toMatchObject({ sessions: 1 });
    expect((await store.readScopeIndex(scopeKey)) as object).toMatchObject({ index: { skills: [{ skillId: 'compact-skill' }] } });
    const pointerText = await storedText(activeKey(scopeKey, 'compact-skill'));
    expect(pointerText).toBe(`${JSON.stringify(JSON.parse(pointerText), null, 2)}\n`);
  });
});
