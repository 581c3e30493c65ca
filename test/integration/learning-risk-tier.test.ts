import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { revisionLine } from '../../cli/format';
import { pendingFor } from '../../console/read-model';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { SkillRepository } from '../../client/skill-repository';
import type { EvolutionConfig, SessionEvent } from '../../core';
import type { ApprovalWorkflow } from '../../core/workflow-api/approval';
import { approvalWorkflowId } from '../../core/workflow-ids';
import { createSkillStore, type SkillStore } from '../../storage';
import { realServices, uniqueName } from '../support/infra';
import { startMainWorker, type RunningWorker } from '../support/worker';

// Issue 31: the risk-tiered human gate and the approval expiry action, end to end (real
// Temporal, S3 and model server). The local model server turns each distinct tool call
// into a step; a `shell` tool call becomes "Call `shell` to run: <command>", which is how
// a transcript smuggles a command and a URL into a learned skill.

type Call = { name: string; args: Record<string, string> };

/** A session whose reviewer answer is the skill `name` with one step per distinct call. */
function session(name: string, calls: Call[], extra = ''): SessionEvent[] {
  return [
    { role: 'user', content: `[[skill:${name}]] Prepare the weather report for the team. ${extra}` },
    {
      role: 'assistant',
      content: null,
      tool_calls: calls.map((c, i) => ({ id: `c${i}`, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.args) } })),
    },
    ...calls.map((_c, i) => ({ role: 'tool' as const, tool_call_id: `c${i}`, content: '{"ok":true}' })),
    { role: 'assistant', content: 'Done: the report is ready.' },
  ];
}

const LOW_RISK: Call[] = [
  { name: 'geocode', args: { city: 'Paris' } },
  { name: 'geocode', args: { city: 'Lima' } },
  { name: 'get_weather', args: { lat: '1', lon: '2' } },
  { name: 'get_weather', args: { lat: '3', lon: '4' } },
];
const HIGH_RISK: Call[] = [...LOW_RISK, { name: 'shell', args: { command: 'curl -s https://status.example.com/v1/weather' } }];

let store: SkillStore;
let createOnly: RunningWorker;
let expiresRejecting: RunningWorker;
let expiresPromoting: RunningWorker;
const EXPIRY_MS = 3_000;

beforeAll(async () => {
  const base = await realServices();
  const governance = (g: Partial<EvolutionConfig['governance']>): EvolutionConfig => ({
    ...base,
    governance: { ...base.governance, humanGate: 'create_only', approvalTimeoutMs: undefined, shadowMode: false, ...g },
  });
  [createOnly, expiresRejecting, expiresPromoting] = await Promise.all([
    startMainWorker(governance({})),
    startMainWorker(governance({ approvalTimeoutMs: EXPIRY_MS, approvalExpiryAction: 'reject' })),
    startMainWorker(governance({ approvalTimeoutMs: EXPIRY_MS, approvalExpiryAction: 'promote' })),
  ]);
  store = createSkillStore(base.s3);
});
afterAll(async () => {
  await Promise.all([createOnly?.stop(), expiresRejecting?.stop(), expiresPromoting?.stop()]);
});

async function learn(w: RunningWorker, app: string, sessionId: string, events: SessionEvent[]) {
  const started = await startLearningJob({ client: w.client, store, config: w.config }, { app, user: 'u1', sessionId, events });
  const outcome = await waitForLearningJob(w, started.jobWorkflowId, { timeoutMs: 60_000 });
  expect(outcome).toMatchObject({ status: 'reviewed' });
  expect(outcome.revisions).toHaveLength(1);
  const summary = outcome.revisions[0]!;
  const revision = (await store.readRevision(started.scopeKey, summary.skillId, summary.revisionId))!;
  return { scopeKey: started.scopeKey, summary, revision };
}

async function approvalResult(w: RunningWorker, revisionId: string) {
  return w.client.workflow.getHandle<ApprovalWorkflow>(approvalWorkflowId(revisionId)).result();
}

describe('risk-tiered human gate under create_only', () => {
  it('holds a high-risk update for a person, with the reason, and publishes a low-risk update at once', async () => {
    const app = uniqueName('risk');
    const deps = { client: createOnly.client, store, config: createOnly.config };
    const created = await learn(createOnly, app, 's1', session('weather-brief', LOW_RISK));
    expect(created.summary).toMatchObject({ action: 'create', status: 'pending_approval' });
    await decideRevision(deps, created.summary.revisionId, { decision: 'approve', reviewer: 'alice' });

    const risky = await learn(createOnly, app, 's2', session('weather-brief', HIGH_RISK));
    expect(risky.summary).toMatchObject({ action: 'update', status: 'pending_approval' });
    expect(risky.revision.risk).toEqual({
      tier: 'high',
      reasons: ['adds a shell command: "curl -s"', 'adds a URL: "https://status.example.com/v1/weather"'],
    });
    expect(risky.revision.human).toMatchObject({ held: true, heldForRisk: true });
    expect(risky.revision.human!.reasons).toContain('high risk, held for a person: adds a URL: "https://status.example.com/v1/weather"');
    const repo = new SkillRepository(store, { mode: 'app', app });
    expect((await repo.load('weather-brief')).revisionId).toBe(created.summary.revisionId); // nothing changed

    // The approver sees why it waits: the console's Pending page reads these items; the CLI prints the same reasons.
    const approver = { name: 'alice', role: 'approver' as const, scopes: [risky.scopeKey] };
    const consoleDeps = { client: createOnly.client, store, config: createOnly.config };
    let item: Awaited<ReturnType<typeof pendingFor>>[number] | undefined;
    // The open approvals come from a visibility query, which follows the workflow start within moments.
    for (let i = 0; i < 50 && !item; i++) {
      item = (await pendingFor(consoleDeps, approver)).find((p) => p.revisionId === risky.summary.revisionId);
      if (!item) await new Promise((r) => setTimeout(r, 200));
    }
    expect(item).toMatchObject({ risk: 'high', heldBecause: risky.revision.human!.reasons });
    expect(revisionLine(risky.revision)).toContain('    held: high risk, held for a person: adds a URL: "https://status.example.com/v1/weather"');

    // The same skill with one more plain tool: nothing a person must see; published by the job.
    await decideRevision(deps, risky.summary.revisionId, { decision: 'reject', reviewer: 'alice' });
    const plain = await learn(createOnly, app, 's3', session('weather-brief', [...LOW_RISK, { name: 'format_report', args: { text: 'x' } }]));
    expect(plain.summary).toMatchObject({ action: 'update', status: 'active' });
    expect(plain.revision.risk).toEqual({ tier: 'low', reasons: [] });
    await repo.refresh();
    expect((await repo.load('weather-brief')).revisionId).toBe(plain.summary.revisionId);
  });

  it('holds a reviewer-proposed deletion for a person instead of applying it', async () => {
    const app = uniqueName('risk-del');
    const deps = { client: createOnly.client, store, config: createOnly.config };
    const created = await learn(createOnly, app, 's1', session('weather-brief', LOW_RISK));
    await decideRevision(deps, created.summary.revisionId, { decision: 'approve', reviewer: 'alice' });

    const deletion = await learn(createOnly, app, 's2', [
      { role: 'user', content: 'Give me the weather brief for Oslo.' },
      { role: 'assistant', content: 'Oslo: 3 degrees.' },
      { role: 'user', content: 'No, that procedure is wrong and outdated, remove it. [[delete:weather-brief]]' },
    ]);
    expect(deletion.summary).toMatchObject({ action: 'delete', status: 'pending_approval' });
    expect(deletion.revision.human).toEqual({ held: true, heldForRisk: true, reasons: ['high risk, held for a person: deletes the published skill "weather-brief"'] });
    const repo = new SkillRepository(store, { mode: 'app', app });
    expect((await repo.load('weather-brief')).revisionId).toBe(created.summary.revisionId);
  });
});

describe('approval expiry action', () => {
  it('reject: an expired approval rejects the revision; nothing is published', async () => {
    const app = uniqueName('expire-rej');
    const held = await learn(expiresRejecting, app, 's1', session('weather-brief', LOW_RISK));
    expect(held.summary.status).toBe('pending_approval');
    expect(await approvalResult(expiresRejecting, held.summary.revisionId)).toMatchObject({ decision: 'auto_rejected', reviewer: 'auto-expire', finalStatus: 'rejected' });
    expect((await store.readRevision(held.scopeKey, held.summary.skillId, held.summary.revisionId))?.status).toBe('rejected');
    expect(await store.readActive(held.scopeKey, held.summary.skillId)).toBeUndefined();
  });

  it('promote: an expired low-risk approval is published, a high-risk one is rejected all the same', async () => {
    const app = uniqueName('expire-pro');
    const low = await learn(expiresPromoting, app, 's1', session('weather-brief', LOW_RISK));
    const high = await learn(expiresPromoting, app, 's2', session('status-probe', HIGH_RISK));
    expect(low.revision.risk?.tier).toBe('low');
    expect(high.revision.risk?.tier).toBe('high');
    const [lowResult, highResult] = await Promise.all([approvalResult(expiresPromoting, low.summary.revisionId), approvalResult(expiresPromoting, high.summary.revisionId)]);
    expect(lowResult).toMatchObject({ decision: 'auto_expired', finalStatus: 'active' });
    expect(highResult).toMatchObject({ decision: 'auto_rejected', finalStatus: 'rejected' });
    expect((await store.readActive(low.scopeKey, low.summary.skillId))?.pointer).toMatchObject({ revisionId: low.summary.revisionId });
    expect(await store.readActive(high.scopeKey, high.summary.skillId)).toBeUndefined();
  });
});
