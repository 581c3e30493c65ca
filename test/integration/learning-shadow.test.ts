import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkillStore, type SkillStore } from '../../storage';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { SkillRepository } from '../../client/skill-repository';
import type { EvolutionConfig } from '../../core';
import { settledMetrics } from '../support/counters';
import { realServices, uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { startMainWorker, type RunningWorker } from '../support/worker';

// The articles' bad candidate: "Recipe Cookbook - 3 Dishes", one step, `rm -rf /`.
// Two real workers on their own task queues: one in shadow mode, one enforcing.
let store: SkillStore;
let shadow: RunningWorker;
let enforcing: RunningWorker;

const NAME = 'Recipe Cookbook - 3 Dishes';
const SKILL_ID = 'recipe-cookbook-3-dishes';
const SPEC_REASON = 'needs at least 2 steps, got 1';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

beforeAll(async () => {
  const base = await realServices();
  const withGovernance = (shadowMode: boolean): EvolutionConfig => ({
    ...base,
    governance: { ...base.governance, humanGate: 'create_only', approvalTimeoutMs: undefined, shadowMode },
  });
  [shadow, enforcing] = await Promise.all([startMainWorker(withGovernance(true)), startMainWorker(withGovernance(false))]);
  store = createSkillStore(base.s3);
});
afterAll(async () => {
  await Promise.all([shadow?.stop(), enforcing?.stop()]);
});

async function learnDangerous(w: RunningWorker) {
  const app = uniqueName('app');
  const started = await startLearningJob({ client: w.client, store, config: w.config }, { app, user: 'u1', sessionId: 's1', events: exampleSession('dangerous-cleanup') });
  const outcome = await waitForLearningJob(w, started.jobWorkflowId, { timeoutMs: 60_000 });
  expect(outcome).toMatchObject({ status: 'reviewed', cursorAdvanced: true });
  expect(outcome.revisions).toHaveLength(1);
  const summary = outcome.revisions[0]!;
  expect(summary).toMatchObject({ skillId: SKILL_ID, name: NAME, action: 'create' });
  const revision = (await store.readRevision(started.scopeKey, SKILL_ID, summary.revisionId))!;
  return { app, scopeKey: started.scopeKey, summary, revision };
}

/** Both failing reports are kept, whatever happens next (Spec and Safety always both run). */
function expectBothGateFailures(revision: Awaited<ReturnType<typeof learnDangerous>>['revision']) {
  const gate = (g: string) => revision.gates.find((r) => r.gate === g);
  expect(gate('spec')).toMatchObject({ ran: true, passed: false, reasons: [SPEC_REASON] });
  expect(gate('safety')).toMatchObject({ ran: true, passed: false });
  expect(gate('safety')!.reasons.join('\n')).toContain('rm -rf of /');
  expect(gate('effectiveness')).toMatchObject({ ran: false, passed: false });
  expect(revision.human).toBeUndefined(); // the human gate runs only after every automatic gate passed
  // Invariant 8: the credential in the transcript never reached the reviewer or storage.
  expect(JSON.stringify(revision)).not.toContain(SECRET);
}

// Shadow mode still publishes what only Spec, Effectiveness or the human policy would stop
// (test/unit/gates-risk.test.ts); never a Safety failure or a high-risk candidate.
describe('shadow mode', () => {
  it('records the failing Spec and Safety reports and never publishes a Safety failure (issue 31)', async () => {
    const { app, scopeKey, summary, revision } = await learnDangerous(shadow);
    expect(summary).toMatchObject({ status: 'rejected', shadowBypassed: false });
    expect(summary.reasons).toContain(SPEC_REASON);
    expect(summary.reasons.join('\n')).toContain('rm -rf of /');
    expectBothGateFailures(revision);
    expect(revision).toMatchObject({ status: 'rejected', shadowBypassed: false, source: 'reviewer' });

    expect(await store.readActive(scopeKey, SKILL_ID)).toBeUndefined();
    expect(await new SkillRepository(store, { mode: 'app', app }).list()).toEqual([]);
    const audit = await store.listAudit(scopeKey, SKILL_ID);
    expect(audit.map((e) => e.action)).toEqual(['write_revision', 'reject']);
    expect(await settledMetrics(store, scopeKey)).toMatchObject({ revisionsWritten: 1, promoted: 0, shadowBypassed: 0, specRejected: 1, safetyRejected: 1 });
  });

  it('without shadow mode the same session is rejected with both the Spec and the Safety reason; nothing published', async () => {
    const { app, scopeKey, summary, revision } = await learnDangerous(enforcing);
    expect(summary).toMatchObject({ status: 'rejected', shadowBypassed: false });
    expect(summary.reasons).toContain(SPEC_REASON);
    expect(summary.reasons.join('\n')).toContain('rm -rf of /');
    expectBothGateFailures(revision);
    expect(revision).toMatchObject({ status: 'rejected', shadowBypassed: false });

    expect(await store.readActive(scopeKey, SKILL_ID)).toBeUndefined();
    expect(await new SkillRepository(store, { mode: 'app', app }).list()).toEqual([]);
    const audit = await store.listAudit(scopeKey, SKILL_ID);
    expect(audit.map((e) => e.action)).toEqual(['write_revision', 'reject']);
    expect(audit[1]!.reason).toContain(SPEC_REASON);
    expect(audit[1]!.reason).toContain('rm -rf of /');
    expect(await settledMetrics(store, scopeKey)).toMatchObject({ revisionsWritten: 1, promoted: 0, shadowBypassed: 0, specRejected: 1, safetyRejected: 1 });
  });
});
