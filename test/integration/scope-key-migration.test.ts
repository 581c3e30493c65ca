import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderSkillMarkdown, scopeKey, shortHash, type EvolutionConfig, type Revision, type Scope } from '../../core';
import { infraEnv, readState } from '../../infra';
import { compactJson, createSkillStore, experimentKey, indentedJson, type SkillStore } from '../../storage';
import { legacyScopeKey, legacySegment, type ScopeKeyMigrationReport } from '../../storage/scope-key-migration';
import { freshBucket, realServices, uniqueName } from '../support/infra';

// Issue 31 item 2: a bucket written by the code before the one-to-one mapping (its key layout,
// byte for byte: scopes/{legacyScopeKey}/…), moved by `evolution migrate scope-keys`, then
// read through today's store.

const REPO = join(__dirname, '..', '..');
const AT = '2026-11-29T10:00:00.000Z';

let config: EvolutionConfig;
let store: SkillStore;

beforeAll(async () => {
  config = await freshBucket(await realServices(['s3']), 'migrate');
  store = createSkillStore(config.s3);
});

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, ...infraEnv(readState()), S3_BUCKET: config.s3.bucket };
  return new Promise((resolve) => {
    execFile(process.execPath, [join(REPO, 'bin', 'evolution.js'), ...args], { cwd: REPO, env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function migrate(...flags: string[]): Promise<{ code: number; report: ScopeKeyMigrationReport }> {
  const run = await cli('migrate', 'scope-keys', '--json', ...flags);
  expect(run.stderr, run.stderr).not.toMatch(/Error/);
  return { code: run.code, report: JSON.parse(run.stdout) as ScopeKeyMigrationReport };
}

/** What the old code stored for one learned, published skill of a scope, at the old keys. */
async function writtenByOldCode(scope: Scope, skillId: string, opts: { session?: string; revisionId?: string } = {}): Promise<{ oldKey: string; revisionId: string }> {
  const oldKey = legacyScopeKey(scope);
  const revisionId = opts.revisionId ?? uniqueName('rev');
  const spec = { name: skillId, description: `about ${skillId}`, when_to_use: 'w', steps: ['step one'], pitfalls: [] };
  const revision: Revision = {
    id: revisionId,
    skillId,
    scopeKey: oldKey,
    scope,
    action: 'create',
    status: 'active',
    spec,
    source: 'reviewer',
    jobId: `learning/${oldKey}/s1/seg-1`,
    reason: '',
    gates: [],
    shadowBypassed: false,
    createdAt: AT,
    updatedAt: AT,
    history: [],
  };
  const base = `scopes/${oldKey}/`;
  const put = (key: string, body: object | string) => store.objects.putCreateOnly(key, body);
  await put(`${base}skills/${skillId}/revisions/${revisionId}.json`, revision);
  await put(`revisions-by-id/${revisionId}.json`, { scopeKey: oldKey, skillId });
  await put(`${base}skills/${skillId}/active.json`, { skillId, revisionId, deleted: false, managed: true, publishedAt: AT, seq: 1, recent: [], spec });
  await put(`${base}skills/${skillId}/SKILL.md`, renderSkillMarkdown(spec));
  await put(`${base}skills/${skillId}/audit/2026-11-29T10-00-00.000Z-${revisionId}.json`, { id: revisionId, scopeKey: oldKey, skillId, action: 'publish', at: AT });
  // Stored compact, as the index workflow writes it.
  await put(
    `${base}index.json`,
    compactJson({
      scopeKey: oldKey,
      generation: 1,
      skills: [{ skillId, name: skillId, description: spec.description, revisionId, managed: true, seq: 1 }],
      removed: [],
    }),
  );
  const session = opts.session ?? 's1';
  await put(`${base}sessions/${legacySegment(session)}/cursor.json`, { lastReviewedAt: AT, lastEventCount: 4, updatedAt: AT });
  await put(`${base}jobs/${legacySegment(revision.jobId)}.json`, { jobId: revision.jobId, scopeKey: oldKey, status: 'completed' });
  return { oldKey, revisionId };
}

async function keysUnder(prefix: string): Promise<string[]> {
  return store.objects.list(prefix);
}

describe('evolution migrate scope-keys (a bucket written by the old mapping)', () => {
  it('moves ids spelled id-…, leaves hashed ids, reports a collided scope, and is safe to run again', async () => {
    const app = 'shop';
    const ana = 'ana@example.com';
    const anaHash = `id-${shortHash(ana)}`;
    // Ana's scope (an unsafe id, hashed under both mappings) and a session of hers named id-….
    const anaScope: Scope = { mode: 'user', app, user: ana };
    await writtenByOldCode(anaScope, 'weather', { session: 'id-chat-7' });
    // A user literally called id-lit (kept verbatim by the old mapping).
    const literal: Scope = { mode: 'user', app, user: 'id-lit' };
    const lit = await writtenByOldCode(literal, 'recipes');
    // A user named after Bob's hash, alone in that key (Bob never used the product).
    const bobHash = `id-${shortHash('bob@example.com')}`;
    const impostor: Scope = { mode: 'user', app, user: bobHash };
    const imp = await writtenByOldCode(impostor, 'travel');
    // Carol and the user named after Carol's hash: both wrote into one key under the old mapping.
    const carol = 'carol@example.com';
    await writtenByOldCode({ mode: 'user', app, user: carol }, 'notes');
    await store.objects.putCreateOnly(`scopes/users/${app}/id-${shortHash(carol)}/skills/notes/revisions/rev-impostor.json`, {
      id: 'rev-impostor',
      scopeKey: `users/${app}/id-${shortHash(carol)}`,
      scope: { mode: 'user', app, user: `id-${shortHash(carol)}` },
    });
    // An app called id-7 and an experiment called id-exp.
    const appScope: Scope = { mode: 'app', app: 'id-7' };
    await writtenByOldCode(appScope, 'faq');
    await store.objects.putCreateOnly('experiments/id-exp/experiment.json', { experimentId: 'id-exp', status: 'completed' });
    const longExperiment = `exp-${'x'.repeat(100)}`;
    await store.objects.putCreateOnly(`experiments/${legacySegment(longExperiment)}/experiment.json`, { experimentId: longExperiment, status: 'completed' });

    // Before: today's code does not find what the old code stored for the literal ids.
    expect(scopeKey(literal)).not.toBe(lit.oldKey);
    expect(await store.readActive(scopeKey(literal), 'recipes')).toBeUndefined();
    expect(scopeKey(impostor)).not.toBe(imp.oldKey);
    expect(imp.oldKey).toBe(`users/${app}/${bobHash}`);

    const before = await keysUnder('');
    const dry = await migrate('--dry-run');
    expect(dry.code).toBe(1); // Carol's scope is collided
    expect(await keysUnder('')).toEqual(before);
    expect(
      dry.report.moves
        .filter((m) => m.status === 'would-move')
        .map((m) => m.from)
        .sort(),
    ).toEqual(
      [`scopes/${lit.oldKey}/`, `scopes/${imp.oldKey}/`, `scopes/${legacyScopeKey(appScope)}/`, `scopes/${scopeKey(anaScope)}/sessions/id-chat-7/`, 'experiments/id-exp/'].sort(),
    );
    expect(dry.report.moves.find((m) => m.status === 'collided')).toMatchObject({ from: `scopes/users/${app}/id-${shortHash(carol)}/` });

    // A run that stopped after one copy: the next one goes on from there.
    const newLiteralKey = scopeKey(literal);
    await store.objects.putCreateOnly(
      `scopes/${newLiteralKey}/skills/recipes/revisions/${lit.revisionId}.json`,
      `${JSON.stringify({ ...(await store.objects.getJson(`scopes/${lit.oldKey}/skills/recipes/revisions/${lit.revisionId}.json`, z.looseObject({})))!.value, scopeKey: newLiteralKey }, null, 2)}\n`,
    );
    expect(await keysUnder('')).toHaveLength(before.length + 1);

    const run = await migrate();
    expect(run.code).toBe(1);
    expect(run.report.moves.filter((m) => m.status === 'moved')).toHaveLength(5);
    expect(run.report.oldScopeKeys.sort()).toEqual([lit.oldKey, imp.oldKey, legacyScopeKey(appScope)].sort());

    // After: everything reads through today's mapping.
    for (const [scope, skillId] of [
      [literal, 'recipes'],
      [impostor, 'travel'],
      [appScope, 'faq'],
      [anaScope, 'weather'],
    ] as const) {
      const key = scopeKey(scope);
      const active = await store.readActive(key, skillId);
      expect(active?.pointer, `${key} ${skillId}`).toMatchObject({ skillId, deleted: false });
      const revision = await store.findRevision((active!.pointer as { revisionId: string }).revisionId);
      expect(revision).toMatchObject({ scopeKey: key, scope, skillId });
      expect(await store.readScopeIndex(key)).toMatchObject({ index: { scopeKey: key, skills: [{ skillId }] } });
    }
    // Each rewritten object keeps the form it was stored in.
    const storedText = async (k: string) => {
      const got = await store.objects.getText(k);
      return got && !got.notModified ? got.value : '';
    };
    const movedIndex = await storedText(`scopes/${scopeKey(literal)}/index.json`);
    expect(movedIndex).toBe(compactJson(JSON.parse(movedIndex) as object));
    expect(movedIndex).toContain(JSON.stringify(scopeKey(literal)));
    const movedRevision = await storedText(
      `scopes/${scopeKey(appScope)}/skills/faq/revisions/${((await store.readActive(scopeKey(appScope), 'faq'))!.pointer as { revisionId: string }).revisionId}.json`,
    );
    expect(movedRevision).toBe(indentedJson(JSON.parse(movedRevision)));
    expect(await store.readCursor(scopeKey(literal), 's1')).toMatchObject({ lastEventCount: 4 });
    expect(await store.readCursor(scopeKey(anaScope), 'id-chat-7')).toMatchObject({ lastEventCount: 4 });
    expect(scopeKey(anaScope)).toBe(`users/${app}/${anaHash}`);
    expect(await keysUnder(`scopes/${lit.oldKey}/`)).toEqual([]);
    expect(await keysUnder(`scopes/${imp.oldKey}/`)).toEqual([]);
    expect(await keysUnder(`scopes/${scopeKey(anaScope)}/sessions/id-chat-7/`)).toEqual([]);
    expect(await store.objects.exists(experimentKey('id-exp'))).toBe(true);
    expect(await store.objects.exists('experiments/id-exp/experiment.json')).toBe(false);
    expect(await store.objects.exists(experimentKey(longExperiment))).toBe(true);
    // Carol's collided scope is left exactly as it was.
    expect(await keysUnder(`scopes/users/${app}/id-${shortHash(carol)}/`)).toHaveLength(8);

    // Again: nothing left to move.
    const again = await migrate();
    expect(again.report.moves.filter((m) => m.status !== 'collided')).toEqual([]);
    expect(await keysUnder('')).toHaveLength(before.length);
  });
});
