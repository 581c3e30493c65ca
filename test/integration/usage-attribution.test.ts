import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { SkillLoadTool } from '../../client/skill-load-tool';
import { SkillRepository } from '../../client/skill-repository';
import { scopeUsage } from '../../client/usage';
import { nextPointer, scopeKey as scopeKeyOf, type EvolutionConfig, type Outcome, type SessionEvent, type SessionUsage } from '../../core';
import { createSkillStore, indexChangeFor, type SkillStore } from '../../storage';
import { startCountingProxy, type CountingProxy } from '../../bench/support/s3-counting-proxy';
import { realServices, uniqueName } from '../support/infra';
import { startMainWorker, type RunningWorker } from '../support/worker';

// Usage attribution on a workload whose counts are known: real worker, real S3 (through a
// counting proxy), transcripts whose skill_load results come from the real SkillLoadTool.
// The review policy skips every session (minToolCalls is high): attribution runs for every
// job whether or not it is reviewed, and no model call is needed.

let proxy: CountingProxy;
let w: RunningWorker;
let store: SkillStore;
const REPO = join(__dirname, '..', '..');

beforeAll(async () => {
  const base = await realServices();
  proxy = await startCountingProxy(base.s3.endpoint!);
  const config: EvolutionConfig = { ...base, s3: { ...base.s3, endpoint: proxy.endpoint }, governance: { ...base.governance, minToolCalls: 1000, approvalTimeoutMs: undefined } };
  w = await startMainWorker(config);
  store = createSkillStore(base.s3); // seeding and checks: not counted
});

afterAll(async () => {
  await w?.stop();
  await proxy?.close();
});

async function publish(scopeKey: string, names: string[]): Promise<void> {
  const changes = await Promise.all(
    names.map(async (name) => {
      const spec = { name, description: `Use for ${name} tasks`, when_to_use: 'tests', steps: ['one'], pitfalls: [] };
      const pointer = nextPointer(
        undefined,
        { skillId: name, revisionId: `${name}-rev-1`, managed: true, deleted: false, spec },
        { opId: `seed/${name}`, at: '2026-01-01T00:00:00.000Z' },
      );
      return indexChangeFor((await store.writeActive(scopeKey, name, pointer, null)).pointer);
    }),
  );
  await store.applyScopeIndexChanges(scopeKey, changes);
}

/** A session in which the agent asks skill_load for each name, answered by the real tool. */
async function session(tool: SkillLoadTool, names: string[]): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [{ role: 'user', content: 'please do the task' }];
  for (const [i, name] of names.entries()) {
    const args = JSON.stringify({ name });
    events.push({ role: 'assistant', content: null, tool_calls: [{ id: `call-${i}`, type: 'function', function: { name: 'skill_load', arguments: args } }] });
    events.push({ role: 'tool', tool_call_id: `call-${i}`, content: await tool.handle(args) });
  }
  events.push({ role: 'assistant', content: 'done' });
  return events;
}

async function countedSessions(scopeKey: string, n: number): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (((await store.readUsage(scopeKey))?.summary.sessions ?? 0) < n) {
    if (Date.now() > deadline) throw new Error(`usage of ${scopeKey} did not reach ${n} sessions`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, TEMPORAL_ADDRESS: w.config.temporal.address, S3_ENDPOINT: w.config.s3.endpoint, EVOLUTION_TASK_QUEUE: w.taskQueue };
  return new Promise((resolve) => {
    execFile(process.execPath, [join(REPO, 'bin', 'evolution.js'), ...args], { cwd: REPO, env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('usage attribution', () => {
  it('counts exactly what a known workload loaded, with and without each revision, and answers `evolution usage`', async () => {
    const app = uniqueName('usage');
    const scopeKey = scopeKeyOf({ mode: 'app', app });
    await publish(scopeKey, ['alpha', 'beta', 'delta']);
    const tool = new SkillLoadTool(new SkillRepository(store, { mode: 'app', app }));

    // 12 sessions: what each loaded, and how it ended.
    const plan: Array<{ loads: string[]; outcome: Outcome['status'] }> = [
      ...['success', 'success', 'success', 'success', 'fail'].map((outcome) => ({ loads: ['alpha'], outcome: outcome as Outcome['status'] })),
      ...['success', 'fail', 'fail'].map((outcome) => ({ loads: [], outcome: outcome as Outcome['status'] })),
      { loads: ['alpha', 'beta', 'alpha'], outcome: 'success' }, // alpha twice: one load
      { loads: ['Beta', 'alpha'], outcome: 'partial' },
      ...['fail', 'fail'].map((outcome) => ({ loads: ['gamma'], outcome: outcome as Outcome['status'] })), // not published: an error, nothing loaded
    ];
    const requests = await Promise.all(
      plan.map(async (p, i) => ({ app, user: 'u', sessionId: `s${i}`, events: await session(tool, p.loads), outcome: { status: p.outcome, tokens: 100 * (i + 1) } })),
    );
    const started = await Promise.all(requests.map((r) => startLearningJob({ client: w.client, store, config: w.config }, r)));
    // The same segment submitted again is the same job: counted once.
    await startLearningJob({ client: w.client, store, config: w.config }, requests[0]!);
    await Promise.all(started.map((s) => waitForLearningJob({ client: w.client, store }, s.jobWorkflowId, { timeoutMs: 120_000 })));
    await countedSessions(scopeKey, plan.length);
    await new Promise((r) => setTimeout(r, 1000)); // nothing more arrives
    const stored = (await store.readUsage(scopeKey))!.summary;
    expect(stored.sessions).toBe(12);
    expect(stored.outcomes).toMatchObject({ n: 12, success: 6, fail: 5, partial: 1, tokenSum: 7800, tokened: 12 });
    const revision = (skillId: string) => stored.skills.find((s) => s.skillId === skillId)!.revisions;
    expect(revision('alpha')).toEqual([
      expect.objectContaining({
        revisionId: 'alpha-rev-1',
        offered: 12,
        loaded: 7,
        with: expect.objectContaining({ n: 7, success: 5, fail: 1, partial: 1, tokenSum: 100 + 200 + 300 + 400 + 500 + 900 + 1000 }),
        without: expect.objectContaining({ n: 5, success: 1, fail: 4 }),
      }),
    ]);
    expect(revision('beta')).toEqual([
      expect.objectContaining({
        offered: 12,
        loaded: 2,
        with: expect.objectContaining({ n: 2, success: 1, partial: 1 }),
        without: expect.objectContaining({ n: 10, success: 5, fail: 5 }),
      }),
    ]);
    expect(revision('delta')).toEqual([expect.objectContaining({ offered: 12, loaded: 0 })]);

    // The report: rates per skill, and a skill published and never loaded is flagged once the window has passed.
    const report = await scopeUsage(store, scopeKey);
    expect(report.skills.find((s) => s.name === 'alpha')).toMatchObject({ loaded: 7, offered: 12, with: { successRate: 5 / 7 }, without: { successRate: 1 / 5 } });
    expect(report.unused).toEqual([]);
    const later = await scopeUsage(store, scopeKey, { skill: 'delta', now: Date.now() + 8 * 24 * 60 * 60_000 });
    expect(later.unused).toEqual(['delta']);

    const out = await cli('usage', '--app', app, '--skill', 'alpha', '--json');
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout)).toMatchObject({ scopeKey, sessions: 12, skills: [{ name: 'alpha', loaded: 7, offered: 12 }] });
    const text = await cli('usage', '--app', app);
    expect(text.stdout).toMatch(/alpha\n\s+loaded 7 of 12 offered \(58%\); success with 71% of 7, without 20% of 5/);
    expect((await cli('usage', '--app', app, '--window', 'soon')).code).toBe(2);
    // The governance counters kept beside the usage, and `--recount` (the scan of every stored revision and job outcome) agree.
    const kept = await cli('metrics', '--app', app, '--json');
    const recounted = await cli('metrics', '--app', app, '--recount', '--json');
    expect(kept.stderr + recounted.stderr).toBe('');
    expect(JSON.parse(kept.stdout)).toMatchObject({ revisionsWritten: 0, candidatesSeen: 0, evidenceStale: 0 });
    expect(JSON.parse(recounted.stdout)).toEqual(JSON.parse(kept.stdout));
  }, 240_000);

  it('costs a job the same S3 requests with 10 or 10,000 sessions counted before in its scope', async () => {
    const costOfOneJob = async (prior: number) => {
      const app = uniqueName(`usage-cost-${prior}`);
      const scopeKey = scopeKeyOf({ mode: 'app', app });
      await publish(scopeKey, ['alpha', 'beta']);
      const history: SessionUsage[] = Array.from({ length: prior }, (_, i) => ({
        jobId: `prior-${i}`,
        outcome: i % 3 ? 'success' : 'fail',
        loads: i % 2 ? [{ name: 'alpha' }] : [],
      }));
      await store.applyUsageBurst(scopeKey, history, '2026-01-01T00:00:00.000Z');
      const tool = new SkillLoadTool(new SkillRepository(store, { mode: 'app', app }));
      const before = proxy.snapshot();
      const started = await startLearningJob(
        { client: w.client, store, config: w.config },
        { app, user: 'u', sessionId: 's', events: await session(tool, ['alpha']), outcome: { status: 'success' } },
      );
      await waitForLearningJob({ client: w.client, store }, started.jobWorkflowId, { timeoutMs: 120_000 });
      await countedSessions(scopeKey, prior + 1);
      return proxy.diff(before);
    };
    const few = await costOfOneJob(10);
    const many = await costOfOneJob(10_000);
    expect(many.byClass).toEqual(few.byClass);
    // The usage burst: the index (what was offered: this job did not review, so it read none), and the summary's write. The
    // worker had never written this scope's summary, so it tries a create-only write first (what a new scope needs), is
    // refused (the prior sessions are there), reads the summary and writes it: the first burst of a scope per worker process.
    expect(few.byClass).toMatchObject({ 'GET index': 1, 'PUT usage': 2, 'GET usage': 1 });
  }, 240_000);
});
