import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nextPointer, scopeKey as scopeKeyOf, type EvolutionConfig } from '../../core';
import { createSkillStore, indexChangeFor, type SkillStore } from '../../storage';
import { realServices, uniqueName } from '../support/infra';

// Curation's dry run on real S3 through the CLI: an unused managed skill is proposed for
// archive once the window has passed; a pinned one and an unmanaged one never are.
const REPO = join(__dirname, '..', '..');
let config: EvolutionConfig;
let store: SkillStore;

beforeAll(async () => {
  config = await realServices(['s3']);
  store = createSkillStore(config.s3);
});

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(REPO, 'bin', 'evolution.js'), ...args],
      { cwd: REPO, env: { ...process.env, S3_ENDPOINT: config.s3.endpoint }, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('evolution curate --dry-run', () => {
  it('proposes the unused skill after the window, spares the pinned and the unmanaged one, and pinning is audited', async () => {
    const app = uniqueName('curate');
    const scopeKey = scopeKeyOf({ mode: 'app', app });
    const names = ['idle-skill', 'pinned-skill', 'hand-written', 'busy-skill'];
    const changes = await Promise.all(
      names.map(async (name) => {
        const spec = { name, description: `for ${name}`, when_to_use: 'tests', steps: ['one'], pitfalls: [] };
        const pointer = nextPointer(
          undefined,
          { skillId: name, revisionId: `${name}-r1`, managed: name !== 'hand-written', deleted: false, spec },
          { opId: `seed/${name}`, at: '2026-01-01T00:00:00.000Z' },
        );
        return indexChangeFor((await store.writeActive(scopeKey, name, pointer, null)).pointer);
      }),
    );
    await store.applyScopeIndexChanges(scopeKey, changes);
    // Sessions counted 40 days ago offered all four; only busy-skill is loaded, by a session counted now.
    const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await store.applyUsageBurst(scopeKey, [{ jobId: `${app}-old`, outcome: 'success', loads: [] }], longAgo);
    await store.applyUsageBurst(
      scopeKey,
      [{ jobId: `${app}-new`, outcome: 'success', loads: [{ name: 'busy-skill', skillId: 'busy-skill', revisionId: 'busy-skill-r1', scopeKey }] }],
      new Date().toISOString(),
    );

    const pinned = await cli('pin', 'pinned-skill', '--app', app, '--reviewer', 'alice', '--comment', 'used by the quarterly report', '--json');
    expect(pinned.stderr).toBe('');
    expect(JSON.parse(pinned.stdout)).toEqual({ skillId: 'pinned-skill', changed: true });
    expect((await store.listAudit(scopeKey, 'pinned-skill')).filter((e) => e.action === 'pin')).toEqual([
      expect.objectContaining({ action: 'pin', actor: 'alice', reason: 'used by the quarterly report', revisionId: 'pinned-skill-r1' }),
    ]);

    const run = await cli('curate', '--app', app, '--dry-run', '--json');
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as { proposals: { name: string; kind: string }[]; skipped: { name: string; why: string }[] };
    expect(report.proposals.map((p) => [p.kind, p.name])).toEqual([['archive', 'idle-skill']]);
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { skillId: 'pinned-skill', name: 'pinned-skill', why: 'pinned' },
        { skillId: 'hand-written', name: 'hand-written', why: 'unmanaged' },
      ]),
    );
    // Before the window has passed (a window longer than the skills' history): nothing is proposed.
    expect(JSON.parse((await cli('curate', '--app', app, '--dry-run', '--window', '60d', '--json')).stdout)).toMatchObject({ proposals: [], skipped: [] });
    // A dry run is one mode: asking for it and a schedule at once is a usage error, and nothing changed.
    expect((await cli('curate', '--app', app, '--dry-run', '--every', '1d')).code).toBe(2);
  }, 120_000);
});
