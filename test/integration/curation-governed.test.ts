import { describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { rollbackSkill } from '../../client/rollback';
import { describeCurationSchedule, pinSkill, removeCurationSchedule, reviveSkills, runCuration, setCurationSchedule } from '../../client/curation';
import { parseDuration, nextPointer, scopeKey as scopeKeyOf, type SkillSpec } from '../../core';
import type { CuratorResult } from '../../core/workflow-api';
import { indexChangeFor } from '../../storage';
import { uniqueName } from '../support/infra';
import { useMainWorker } from '../support/worker';

// Curation as governed revisions on the real worker (Temporal dev server, S3, the local model
// server): a scheduled run proposes archiving the unused skill (never the pinned or unmanaged
// one), merging near-duplicates (the reviewer model writes the merge; one that silently drops
// a pitfall is refused), each held for approval; a second run proposes nothing twice; an
// approved archive is a tombstone that a revive restores.
const fx = useMainWorker({ humanGate: 'create_only' });

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const spec = (name: string, description: string, steps: string[], pitfalls: string[]): SkillSpec => ({ name, description, when_to_use: 'tests', steps, pitfalls });

const SKILLS: { spec: SkillSpec; managed: boolean; loaded: boolean }[] = [
  { spec: spec('idle-skill', 'rotate the staging certificates', ['Renew the certificate', 'Restart the proxy'], ['Expired intermediate']), managed: true, loaded: false },
  { spec: spec('pinned-skill', 'quarterly board report', ['Collect figures'], []), managed: true, loaded: false },
  { spec: spec('hand-written', 'onboarding checklist', ['Create accounts'], []), managed: false, loaded: false },
  {
    spec: spec('csv-report', 'export csv report of monthly sales figures', ['Query the sales table', 'Write the CSV'], ['Time zones of the dates', 'Old exporter (obsolete)']),
    managed: true,
    loaded: true,
  },
  {
    spec: spec('csv-sales-report', 'export a csv report of monthly sales figures per region', ['Query the sales table', 'Group by region'], ['Regions renamed last year']),
    managed: true,
    loaded: true,
  },
  { spec: spec('invoice-pdf', 'render invoice pdf documents for customers', ['Fill the template'], ['Fonts missing on the server']), managed: true, loaded: true },
  {
    spec: spec('invoice-pdf-render', 'render invoice pdf documents for customers quickly', ['Fill the template', 'Compress'], ['Page breaks inside tables [[drop-silently]]']),
    managed: true,
    loaded: true,
  },
];

/** Seeded revision ids: the idle skill's is stored (revision ids are unique across scopes), so it is the app's own. */
const revOf = (app: string, name: string) => (name === 'idle-skill' ? `${app}-idle-skill-r1` : `${name}-r1`);

async function seedScope(app: string) {
  const scopeKey = scopeKeyOf({ mode: 'app', app });
  const changes = await Promise.all(
    SKILLS.map(async ({ spec: s, managed }) => {
      const pointer = nextPointer(
        undefined,
        { skillId: s.name, revisionId: revOf(app, s.name), managed, deleted: false, spec: s },
        { opId: `seed/${s.name}`, at: '2026-01-01T00:00:00.000Z' },
      );
      return indexChangeFor((await fx.store.writeActive(scopeKey, s.name, pointer, null)).pointer);
    }),
  );
  await fx.store.applyScopeIndexChanges(scopeKey, changes);
  // The revision the seeded idle skill was published from (what a rollback restores).
  const idle = SKILLS[0]!.spec;
  await fx.store.createRevision({
    id: revOf(app, 'idle-skill'),
    skillId: 'idle-skill',
    scopeKey,
    scope: { mode: 'app', app },
    action: 'create',
    status: 'active',
    spec: idle,
    source: 'manual',
    jobId: 'seed',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  // Sessions counted 40 days ago were offered every skill; the ones counted now loaded the busy ones.
  await fx.store.applyUsageBurst(scopeKey, [{ jobId: `${app}-old`, outcome: 'success', loads: [] }], new Date(Date.now() - 40 * 86_400_000).toISOString());
  const loads = SKILLS.filter((s) => s.loaded).map((s) => ({ name: s.spec.name, skillId: s.spec.name, revisionId: revOf(app, s.spec.name), scopeKey }));
  await fx.store.applyUsageBurst(scopeKey, [{ jobId: `${app}-new`, outcome: 'success', loads }], new Date().toISOString());
  // csv-sales-report is loaded more: it is the one a merge keeps.
  await fx.store.applyUsageBurst(scopeKey, [{ jobId: `${app}-new2`, outcome: 'success', loads: loads.filter((l) => l.name === 'csv-sales-report') }], new Date().toISOString());
  await pinSkill(fx.store, scopeKey, 'pinned-skill', true, { actor: 'alice', comment: 'board needs it' });
  return scopeKey;
}

const byKind = (r: CuratorResult, kind: string, skill: string) => r.proposals.find((p) => p.kind === kind && p.skills.includes(skill));

describe('curation as governed revisions', () => {
  it('a scheduled run proposes archive and merges held for approval, refuses a lossy merge, proposes nothing twice; archive and revive are revisions', async () => {
    const app = uniqueName('curate');
    const scope = { mode: 'app' as const, app };
    const scopeKey = await seedScope(app);
    const deps = { client: fx.w.client, taskQueue: fx.w.taskQueue };

    // The scope's schedule, triggered now: its run is keyed by scope and scheduled time.
    const view = await setCurationSchedule({ ...deps, parseInterval: (t) => parseDuration(t)! }, scope, { every: '1d' });
    expect(view.scheduleId).toBe(`curate/${scopeKey}`);
    let first: CuratorResult;
    try {
      await fx.w.client.schedule.getHandle(view.scheduleId).trigger();
      const run = await eventually('the triggered run', async () => (await describeCurationSchedule(fx.w.client, scopeKey)).recentRuns[0]);
      expect(run.workflowId.startsWith(`curate/${scopeKey}-`)).toBe(true);
      first = (await fx.w.client.workflow.getHandle(run.workflowId).result()) as CuratorResult;
      // The run's time is the schedule's (the id's suffix), so a retried or replayed run plans against the same window.
      expect(run.workflowId.slice(`curate/${scopeKey}-`.length)).toBe(first.at);
    } finally {
      expect(await removeCurationSchedule(fx.w.client, scopeKey)).toBe(true);
    }

    // Archive: the unused managed skill only; pinned and unmanaged ones are spared.
    const archive = byKind(first, 'archive', 'idle-skill')!;
    expect(archive).toMatchObject({ outcome: 'proposed', revisions: [{ skillId: 'idle-skill', status: 'pending_approval' }] });
    expect(first.proposals.filter((p) => p.kind === 'archive').map((p) => p.skills)).toEqual([['idle-skill']]);
    expect(first.spared).toEqual(
      expect.arrayContaining([
        { skillId: 'pinned-skill', name: 'pinned-skill', why: 'pinned' },
        { skillId: 'hand-written', name: 'hand-written', why: 'unmanaged' },
      ]),
    );
    const archiveRev = (await fx.store.readRevision(scopeKey, 'idle-skill', archive.revisions[0]!.revisionId))!;
    expect(archiveRev).toMatchObject({ action: 'delete', source: 'curator', parentId: revOf(app, 'idle-skill'), curation: { kind: 'archive', runId: first.runId } });
    expect(archiveRev.human?.reasons).toEqual(['policy holds revisions from curator']);

    // Merge: the model's merge keeps every item or says why; held, with the dropped list the approver sees.
    const merge = byKind(first, 'merge', 'csv-report')!;
    expect(merge.outcome).toBe('proposed');
    expect(merge.revisions.map((r) => [r.skillId, r.status])).toEqual([
      ['csv-sales-report', 'pending_approval'],
      ['csv-report', 'pending_approval'],
    ]);
    const merged = (await fx.store.readRevision(scopeKey, 'csv-sales-report', merge.revisions[0]!.revisionId))!;
    expect(merged.spec!.name).toBe('csv-sales-report');
    expect(merged.spec!.pitfalls).toEqual(expect.arrayContaining(['Time zones of the dates', 'Regions renamed last year']));
    expect(merged.curation).toMatchObject({
      kind: 'merge',
      mergedFrom: ['csv-report'],
      dropped: [{ source: 'csv-report', kind: 'pitfall', item: 'Old exporter (obsolete)', reason: 'marked obsolete in csv-report' }],
    });

    // A merge that drops a pitfall without a reason is refused (a rejected revision), not held.
    const lossy = byKind(first, 'merge', 'invoice-pdf')!;
    expect(lossy.outcome).toBe('refused');
    expect(lossy.detail).toMatch(/content preservation: pitfall of invoice-pdf-render dropped without a reason: "Page breaks inside tables/);
    expect(lossy.revisions).toHaveLength(1);
    expect(lossy.revisions[0]!.status).toBe('rejected');
    expect(lossy.revisions[0]!.approvalWorkflowId).toBeUndefined();
    const refusedRev = (await fx.store.readRevision(scopeKey, lossy.revisions[0]!.skillId, lossy.revisions[0]!.revisionId))!;
    expect(refusedRev.gates.find((g) => g.gate === 'spec')).toMatchObject({
      passed: false,
      reasons: expect.arrayContaining([expect.stringMatching(/content preservation: pitfall of invoice-pdf-render dropped without a reason/)]),
    });

    // A second run proposes nothing twice: every skill it touched has a pending revision, or the proposal is the stored one.
    const second = await runCuration(deps, scope);
    for (const p of second.proposals) expect(['already_proposed', 'refused']).toContain(p.outcome);
    expect(second.proposals.flatMap((p) => p.revisions).every((r) => r.alreadyProposed)).toBe(true);
    expect((await fx.store.listRevisions(scopeKey, 'idle-skill')).map((r) => r.id)).toEqual([revOf(app, 'idle-skill'), archiveRev.id]);

    // Approving the archive publishes a tombstone: the skill leaves the index; its content stays with the pointer.
    expect(await decideRevision({ client: fx.w.client, store: fx.store }, archiveRev.id, { decision: 'approve', reviewer: 'alice' })).toMatchObject({ decision: 'approved' });
    const tombstone = (await fx.store.readActive(scopeKey, 'idle-skill'))!.pointer;
    expect(tombstone).toMatchObject({ deleted: true, revisionId: archiveRev.id, spec: SKILLS[0]!.spec });
    const index = await fx.store.readScopeIndex(scopeKey);
    expect(index && !index.notModified && index.index.skills.map((s) => s.skillId)).not.toContain('idle-skill');

    // Revive: asked for again, a revision restoring the archived content, held, then approved.
    const revived = await reviveSkills(deps, scope, ['idle-skill'], { requestedBy: 'bob' });
    expect(revived.proposals).toMatchObject([{ kind: 'revive', outcome: 'proposed', revisions: [{ skillId: 'idle-skill', status: 'pending_approval' }] }]);
    const reviveId = revived.proposals[0]!.revisions[0]!.revisionId;
    expect(await fx.store.readRevision(scopeKey, 'idle-skill', reviveId)).toMatchObject({
      action: 'create',
      parentId: archiveRev.id,
      spec: SKILLS[0]!.spec,
      curation: { kind: 'revive' },
    });
    await decideRevision({ client: fx.w.client, store: fx.store }, reviveId, { decision: 'approve', reviewer: 'alice' });
    expect((await fx.store.readActive(scopeKey, 'idle-skill'))!.pointer).toMatchObject({ deleted: false, revisionId: reviveId, spec: SKILLS[0]!.spec });

    // Clean up the held merge (its approvals would wait forever otherwise).
    for (const r of merge.revisions)
      await decideRevision({ client: fx.w.client, store: fx.store }, r.revisionId, { decision: 'reject', reviewer: 'alice', comment: 'test cleanup' });
  }, 400_000);

  it('with auto-archive, an archive the policy does not hold is published through the same publisher, and a rollback restores the skill', async () => {
    const app = uniqueName('curate-auto');
    const scope = { mode: 'app' as const, app };
    const scopeKey = await seedScope(app);
    // create_only (this file's policy) does not hold a delete: the archive publishes at once.
    const run = await runCuration({ client: fx.w.client, taskQueue: fx.w.taskQueue }, scope, { autoArchive: true, maxMerges: 0 });
    expect(run.proposals).toMatchObject([{ kind: 'archive', outcome: 'proposed', skills: ['idle-skill'], revisions: [{ status: 'active' }] }]);
    expect(run.proposals[0]!.revisions[0]!.approvalWorkflowId).toBeUndefined();
    const archiveId = run.proposals[0]!.revisions[0]!.revisionId;
    expect((await fx.store.readActive(scopeKey, 'idle-skill'))!.pointer).toMatchObject({ deleted: true, revisionId: archiveId });
    expect((await fx.store.listAudit(scopeKey, 'idle-skill')).map((e) => e.action)).toContain('delete');

    // Archived, not deleted: the rollback moves the pointer back to the skill's last revision.
    const back = await rollbackSkill({ client: fx.w.client, config: fx.w.config }, { scopeKey, skillId: 'idle-skill', reviewer: 'carol', comment: 'still needed' });
    expect(back).toMatchObject({ restoredRevisionId: revOf(app, 'idle-skill'), archivedRevisionId: archiveId });
    expect((await fx.store.readActive(scopeKey, 'idle-skill'))!.pointer).toMatchObject({ deleted: false, spec: SKILLS[0]!.spec });
  }, 300_000);
});
