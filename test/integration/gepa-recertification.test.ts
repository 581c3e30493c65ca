/**
 * Re-certification (issue 34 item 7) on the real evaluator task queue: a GEPA revision is
 * published on Holdout evidence from one evaluator version; when the evaluator on its queue
 * reports another version the Holdout is re-run, and the skill is re-certified, or marked
 * "evidence stale" with a rollback proposed when it now regresses (metric, console).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { scopeMetrics } from '../../client/metrics';
import { runExperiment } from '../../client/optimization';
import { certificationCheck, runRecertification, scheduleRecertification } from '../../client/recertification';
import type { RecertificationResult } from '../../core/gepa/recertification';
import { RECERTIFICATION_SCHEDULE_ID } from '../../core/workflow-ids';
import { skillTimelineFor } from '../../console/read-model';
import { uniqueName } from '../support/infra';
import { seedManagedSkill, startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';

let h: GepaHarness;
beforeAll(async () => {
  h = await startGepaHarness();
});
afterAll(async () => {
  await h?.stop();
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `npx evolution …` as a user runs it, against the harness's worker, S3 and Temporal. */
function evolution(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, TEMPORAL_ADDRESS: h.config.temporal.address, S3_ENDPOINT: h.config.s3.endpoint, EVOLUTION_TASK_QUEUE: h.main.taskQueue };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(__dirname, '..', '..', 'bin', 'evolution.js'), ...args],
      { cwd: join(__dirname, '..', '..'), env, timeout: 300_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** An optimized revision, published on Holdout evidence from the evaluator on `queue` (rubric-1/model-a). */
async function optimizedSkill(queue: string) {
  await h.addEvaluator({ evaluator: { evaluatorVersion: 'rubric-1', modelVersion: 'model-a' } }, queue);
  const skill = await seedManagedSkill(h.store);
  const dataset = weatherDataset({ seed: 31 });
  const report = await runExperiment(h.deps, weatherRequest(queue, dataset, { scope: skill.scope, skillId: skill.skillId, parentRevisionId: 'active', submit: true }));
  const revisionId = report.submittedRevisionId!;
  expect(revisionId).toBeDefined();
  await decideRevision(h.deps, revisionId, { decision: 'approve', reviewer: 'maria' });
  return { skill, dataset, report, revisionId };
}

describe('re-certification of optimized revisions (real dev server, S3, model server, example evaluator on its task queue)', () => {
  it('unchanged evaluator: nothing re-run; new version: Holdout re-run and re-certified; a version that scores it below its parent: evidence stale and a rollback proposed', async () => {
    const queue = uniqueName('recert-eval');
    const { skill, dataset, report, revisionId } = await optimizedSkill(queue);
    const published = (await h.store.findRevision(revisionId))!;
    expect(published.status).toBe('active');
    expect(published.evidence!.certifiedWith).toMatchObject({ evaluatorTaskQueue: queue, evaluatorVersion: 'rubric-1', modelVersion: 'model-a' });
    const only = { scopeKeys: [skill.scopeKey] };

    // Same versions: one describe call, no evaluation, nothing stored.
    const evaluatedBefore = h.evaluatedCases(queue);
    const unchanged = await runRecertification(h.deps, only);
    expect(unchanged).toMatchObject({ checked: 1, verdicts: { current: 1, recertified: 0, stale: 0, regressed: 0 }, checks: [] });
    expect(h.evaluatedCases(queue)).toBe(evaluatedBefore);
    expect(await certificationCheck(h.store, skill.scopeKey, revisionId)).toBeUndefined();

    // The evaluator's rubric changed, its scores did not: the Holdout (both sides) runs again and holds.
    await h.stopEvaluators(queue);
    await h.addEvaluator({ evaluator: { evaluatorVersion: 'rubric-2', modelVersion: 'model-a' } }, queue);
    const rerun = await runRecertification(h.deps, only);
    expect(rerun.verdicts).toEqual({ current: 0, recertified: 1, stale: 0, regressed: 0 });
    expect(h.evaluatedCases(queue) - evaluatedBefore).toBe(2 * dataset.holdout.length);
    const recertified = (await certificationCheck(h.store, skill.scopeKey, revisionId))!;
    expect(recertified).toMatchObject({
      verdict: 'recertified',
      certified: { evaluatorVersion: 'rubric-1' },
      current: { evaluatorVersion: 'rubric-2' },
      caseCount: dataset.holdout.length,
    });
    expect(recertified.delta).toBeCloseTo(report.holdout!.delta, 6); // same scores, same seed: the certified delta
    expect((await scopeMetrics(h.store, skill.scopeKey)).evidenceStale).toBe(0);

    // The model changed and the optimized method now scores 0 on every Holdout case: regressed.
    const added = published.spec!.steps.find((s) => !skill.spec.steps.includes(s))!;
    await h.stopEvaluators(queue);
    await h.addEvaluator(
      {
        evaluator: {
          evaluatorVersion: 'rubric-2',
          modelVersion: 'model-b',
          scoreOverrides: dataset.holdout.map((c) => ({ caseId: c.id, score: 0, whenSpecMatches: escape(added) })),
        },
      },
      queue,
    );
    const regressed = await runRecertification(h.deps, only);
    expect(regressed.verdicts).toEqual({ current: 0, recertified: 0, stale: 0, regressed: 1 });
    const check = (await certificationCheck(h.store, skill.scopeKey, revisionId))!;
    expect(check).toMatchObject({ verdict: 'regressed', candidateHoldoutScore: 0, proposedRollbackTo: skill.revisionId, current: { modelVersion: 'model-b' } });
    expect(check.reason).toMatch(/^evaluator changed from rubric-1\/model-a to rubric-2\/model-b: it now scores below the revision it replaced/);
    // The metric and the console say so; the skill itself is untouched until a person rolls back.
    expect((await scopeMetrics(h.store, skill.scopeKey)).evidenceStale).toBe(1);
    const timeline = await skillTimelineFor(
      { client: h.main.client, store: h.store, config: h.config },
      { name: 'v', role: 'viewer', scopes: ['*'] },
      skill.scopeKey,
      skill.skillId,
    );
    expect(timeline.activeRevisionId).toBe(revisionId);
    expect(timeline.certification).toMatchObject({ verdict: 'regressed', proposedRollbackTo: skill.revisionId });

    // The same run on its Temporal Schedule (triggered now instead of waiting a day).
    await scheduleRecertification(h.deps, '1d', only);
    const schedule = h.main.client.schedule.getHandle(RECERTIFICATION_SCHEDULE_ID);
    try {
      await schedule.trigger();
      let workflowId: string | undefined;
      for (let i = 0; i < 100 && !workflowId; i++) {
        workflowId = (await schedule.describe()).info.recentActions[0]?.action.workflow.workflowId;
        if (!workflowId) await new Promise((r) => setTimeout(r, 200));
      }
      expect(workflowId).toMatch(/^recertify\/sched/);
      const scheduled = (await h.main.client.workflow.getHandle(workflowId!).result()) as RecertificationResult;
      expect(scheduled.verdicts).toEqual({ current: 0, recertified: 0, stale: 0, regressed: 1 });
    } finally {
      await schedule.delete();
    }
  }, 600_000);
  it('evolution recertify: runs now (exit 1 on a regression), --status --scope shows each check, --schedule EVERY creates or updates the schedule', async () => {
    const queue = uniqueName('recert-cli-eval');
    const { skill, dataset, revisionId } = await optimizedSkill(queue);
    const published = (await h.store.findRevision(revisionId))!;
    const checkLine = (verdict: string) => new RegExp(`^  ${escape(skill.skillId)} ${escape(revisionId)}: ${verdict} — `, 'm');

    const unchanged = await evolution('recertify', '--scope', skill.scopeKey);
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(unchanged.stdout.trim()).toBe('checked 1 optimized revisions: 1 current, 0 recertified, 0 stale, 0 regressed');
    const none = await evolution('recertify', '--status', '--scope', skill.scopeKey);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout.trim()).toBe(`no re-certification checks in ${skill.scopeKey}`);

    // A new rubric with the same scores: re-run and re-certified; --status shows the check and its Holdout delta.
    await h.stopEvaluators(queue);
    await h.addEvaluator({ evaluator: { evaluatorVersion: 'rubric-2', modelVersion: 'model-a' } }, queue);
    const rerun = await evolution('recertify', '--scope', skill.scopeKey);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain('checked 1 optimized revisions: 0 current, 1 recertified, 0 stale, 0 regressed');
    expect(rerun.stdout).toMatch(checkLine('recertified'));
    const status = await evolution('recertify', '--status', '--scope', skill.scopeKey);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^${escape(skill.skillId)} ${escape(revisionId)}: recertified — .+ \\(checked \\S+, holdout delta -?\\d\\.\\d{3}\\)$`, 'm'));

    // The model changed and the optimized method now scores 0: regressed, and the command says so by its exit code.
    const added = published.spec!.steps.find((s) => !skill.spec.steps.includes(s))!;
    await h.stopEvaluators(queue);
    await h.addEvaluator(
      {
        evaluator: {
          evaluatorVersion: 'rubric-2',
          modelVersion: 'model-b',
          scoreOverrides: dataset.holdout.map((c) => ({ caseId: c.id, score: 0, whenSpecMatches: escape(added) })),
        },
      },
      queue,
    );
    const regressed = await evolution('recertify', '--scope', skill.scopeKey, '--json');
    expect(regressed.code, regressed.stderr).toBe(1);
    const result = JSON.parse(regressed.stdout) as RecertificationResult;
    expect(result.verdicts).toEqual({ current: 0, recertified: 0, stale: 0, regressed: 1 });
    expect(result.checks[0]).toMatchObject({ revisionId, verdict: 'regressed', proposedRollbackTo: skill.revisionId });
    const stale = await evolution('recertify', '--status', '--scope', skill.scopeKey);
    expect(stale.stdout).toMatch(new RegExp(`^${escape(skill.skillId)} ${escape(revisionId)}: regressed — evaluator changed from rubric-1/model-a to rubric-2/model-b: `, 'm'));

    // Scheduled: created, then its interval updated in place; an interval under a minute and --status without --scope are refused.
    const schedule = h.main.client.schedule.getHandle(RECERTIFICATION_SCHEDULE_ID);
    try {
      const created = await evolution('recertify', '--schedule', '1d', '--scope', skill.scopeKey);
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout.trim()).toBe(`re-certification scheduled every 1d (schedule ${RECERTIFICATION_SCHEDULE_ID}, overlapping runs skipped)`);
      const updated = await evolution('recertify', '--schedule', '6h', '--scope', skill.scopeKey);
      expect(updated.code, updated.stderr).toBe(0);
      const described = await schedule.describe();
      expect(described.spec.intervals).toMatchObject([{ every: 6 * 3600_000 }]);
      expect(described.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'recertificationWorkflow',
        taskQueue: h.main.taskQueue,
        args: [{ scopeKeys: [skill.scopeKey] }],
      });
      expect(described.policies.overlap).toBe('SKIP');
    } finally {
      await schedule.delete();
    }
    const tooOften = await evolution('recertify', '--schedule', '30s');
    expect(tooOften.code).toBe(1);
    expect(tooOften.stderr).toContain('the re-certification interval must be at least 1m, got "30s"');
    const noScope = await evolution('recertify', '--status');
    expect(noScope.code).toBe(2);
    expect(noScope.stderr).toContain('--status needs --scope SCOPE');
  }, 600_000);
});
