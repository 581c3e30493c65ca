import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkillStore, indexChangeFor, type SkillStore } from '../../storage';
import { runCuration } from '../../client/curation';
import { decideRevision } from '../../client/approvals';
import { nextPointer, scopeKey as scopeKeyOf, type EvolutionConfig, type SkillSpec } from '../../core';
import { startCountingProxy, type CountingProxy } from '../../bench/support/s3-counting-proxy';
import { realServices, uniqueName } from '../support/infra';
import { startMainWorker, type RunningWorker } from '../support/worker';

// What a curator run costs in S3 requests at 2,000 skills: the index, the usage summary and
// the pins, then only the candidates' objects; never a listing, never a read per skill.
// Request counts are exact (no timing).
const SKILLS = 2000;

let proxy: CountingProxy;
let w: RunningWorker;
let store: SkillStore;

beforeAll(async () => {
  const base = await realServices();
  proxy = await startCountingProxy(base.s3.endpoint!);
  const config: EvolutionConfig = {
    ...base,
    s3: { ...base.s3, endpoint: proxy.endpoint },
    governance: { ...base.governance, humanGate: 'none', approvalTimeoutMs: undefined, shadowMode: false },
  };
  w = await startMainWorker(config);
  store = createSkillStore(base.s3); // seeding and checks: not counted
});

afterAll(async () => {
  await w?.stop();
  await proxy?.close();
});

const spec = (name: string, description: string, pitfalls: string[] = []): SkillSpec => ({ name, description, when_to_use: 'tests', steps: [`Do ${name}`], pitfalls });

describe('S3 requests of a curator run', () => {
  it(`over ${SKILLS} skills: 3 reads to plan, then only the candidates' objects`, async () => {
    const app = uniqueName('curate-budget');
    const scopeKey = scopeKeyOf({ mode: 'app', app });
    // The index lists 2,000 skills; pointers exist for the candidates (what the run reads of them).
    const specs = Array.from({ length: SKILLS }, (_, i) => spec(`skill-${i}`, `handles case${i} of topic${i}`));
    specs[0] = spec('idle-skill', 'rotate staging certificates');
    specs[1] = spec('csv-report', 'export csv report of monthly sales figures', ['Time zones']);
    specs[2] = spec('csv-sales-report', 'export a csv report of monthly sales figures per region', ['Renamed regions']);
    const pointers = specs.map((s, i) =>
      nextPointer(undefined, { skillId: s.name, revisionId: `${s.name}-r1`, managed: true, deleted: false, spec: s }, { opId: `seed/${i}`, at: '2026-01-01T00:00:00.000Z' }),
    );
    for (const p of pointers.slice(0, 3)) await store.writeActive(scopeKey, p.skillId, p, null);
    await store.applyScopeIndexChanges(scopeKey, pointers.map(indexChangeFor));
    await store.applyUsageBurst(scopeKey, [{ jobId: `${app}-old`, outcome: 'success', loads: [] }], new Date(Date.now() - 40 * 86_400_000).toISOString());
    const loads = specs.slice(1).map((s) => ({ name: s.name, skillId: s.name, revisionId: `${s.name}-r1`, scopeKey }));
    await store.applyUsageBurst(scopeKey, [{ jobId: `${app}-new`, outcome: 'success', loads }], new Date().toISOString());

    const before = proxy.snapshot();
    const run = await runCuration({ client: w.client, taskQueue: w.taskQueue }, { mode: 'app', app });
    // The scope's usage workflow counts the proposals' revisions after them: waited for, so its requests are in the count.
    for (const deadline = Date.now() + 60_000; (await store.readUsage(scopeKey))?.summary.governance?.counts.revisionsWritten !== 3 && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 100));
    const cost = proxy.diff(before);
    const { 'PUT usage': usageWrites, ...curatorCost } = cost.byClass;
    // One write of the usage summary per burst of the scope's usage workflow (the two proposals' records arrive together
    // or apart), plus one create-only write refused the first time this worker writes a summary it has not seen.
    expect(usageWrites).toBeGreaterThanOrEqual(2);
    expect(usageWrites).toBeLessThanOrEqual(3);
    expect(run.proposals.map((p) => [p.kind, p.outcome, ...p.skills])).toEqual([
      ['archive', 'proposed', 'idle-skill'],
      ['merge', 'proposed', 'csv-report', 'csv-sales-report'],
    ]);
    // Plan: 3 GETs. Archive: its revision (already proposed?), its pointer, the index for the
    // gates, then 4 PUTs. Merge: its first revision (before the model call and again at
    // proposal), the pair's pointers, the index, then 8 PUTs. 3 + 7 + 13.
    expect(curatorCost).toEqual({
      'GET index': 3, // the plan's, and each proposal's for the gates (a conditional GET on the worker's copy)
      'GET usage': 2, // the plan's, and the usage workflow's after its refused create-only write
      'GET other': 1, // the pins (curation/pins.json; none here)
      'GET pointer': 3, // the archive candidate's, and the merge pair's contents
      'GET revision': 3, // already proposed? (the archive's; the merge's before its model call and at proposal)
      'PUT revision': 3, // the archive, the merge's update and its absorbed skill's archive
      'PUT locator': 3,
      'PUT audit': 6, // write_revision + hold of each
    });
    expect(cost.total - usageWrites!).toBe(24);

    // Clean up the held revisions (their approvals would wait forever otherwise).
    for (const r of run.proposals.flatMap((p) => p.revisions))
      await decideRevision({ client: w.client, store }, r.revisionId, { decision: 'reject', reviewer: 't', comment: 'cleanup' });
  }, 300_000);
});
