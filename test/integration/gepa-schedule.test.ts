import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revisionIdFor } from '../../core';
import { putDataset, readExperimentRecords, runExperiment } from '../../client/optimization';
import { decideRevision } from '../../client/approvals';
import { InputError } from '../../core/errors';
import { createExperimentSchedule, deleteExperimentSchedule, describeExperimentSchedule, listExperimentSchedules } from '../../client/schedules';
import type { ExperimentReport } from '../../workflows';
import { submissionJobId } from '../../core/gepa/ids';
import { uniqueName } from '../support/infra';
import { seedManagedSkill, startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';

let h: GepaHarness;
beforeAll(async () => {
  h = await startGepaHarness();
});
afterAll(async () => {
  await h?.stop();
});

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('GEPA schedules and time limits', () => {
  it('a schedule fires and starts an experiment that reads its dataset from S3 and resolves the parent when it runs', async () => {
    const skill = await seedManagedSkill(h.store);
    const { dataset } = await putDataset(h.store, weatherDataset());
    const { dataset: _inline, ...request } = weatherRequest(h.evaluatorQueue, dataset, { scope: skill.scope, skillId: skill.skillId, submit: true, options: { maxIterations: 2 } });
    const scheduleId = uniqueName('gepa-nightly');

    await expect(
      createExperimentSchedule(h.deps, {
        scheduleId,
        request: { ...request, datasetRef: { id: dataset.id, version: dataset.version }, parentRevisionId: skill.revisionId },
        every: '2s',
      }),
    ).rejects.toThrow(InputError); // a fixed parent would be stale after the first approval

    const created = await createExperimentSchedule(h.deps, { scheduleId, request: { ...request, datasetRef: { id: dataset.id, version: dataset.version } }, every: '2s' });
    expect(created.overlap).toBe('SKIP');
    await eventually('the schedule in the list', async () => (await listExperimentSchedules(h.main.client)).some((s) => s.scheduleId === scheduleId) || undefined);
    let report: ExperimentReport;
    try {
      const run = await eventually('the first scheduled run', async () => (await describeExperimentSchedule(h.main.client, scheduleId)).recentRuns[0]);
      expect(run.workflowId.startsWith(`experiment/sched-${scheduleId}-`)).toBe(true);
      report = (await h.main.client.workflow.getHandle(run.workflowId).result()) as ExperimentReport;
    } finally {
      await deleteExperimentSchedule(h.main.client, scheduleId);
    }
    await eventually('the schedule to leave the list', async () => ((await listExperimentSchedules(h.main.client)).some((s) => s.scheduleId === scheduleId) ? undefined : true));

    expect(report.status).toBe('completed');
    expect(report.experimentId.startsWith(`sched-${scheduleId}-`)).toBe(true);
    expect(report.dataset).toEqual({ id: dataset.id, version: dataset.version });
    expect(report.parentRevisionId).toBe(skill.revisionId); // resolved from the active pointer at run start
    const { experiment } = await readExperimentRecords(h.store, report.experimentId);
    expect(experiment).toMatchObject({ parentRevisionId: skill.revisionId, request: { parentRevisionId: 'active' } });
    if (report.submission.revisionId) {
      await decideRevision({ client: h.main.client, store: h.store }, report.submission.revisionId, {
        decision: 'reject',
        reviewer: 'gepa-test',
        comment: 'schedule test cleanup',
      });
    }
  });

  it('a search that exceeds its time limit fails: nothing selected, nothing submitted, in-flight evaluation cancelled', async () => {
    const queue = await h.addEvaluator({ evaluator: { delayMs: 60_000 } });
    const skill = await seedManagedSkill(h.store);
    const before = await h.store.readActive(skill.scopeKey, skill.skillId);
    const started = Date.now();
    const report = await runExperiment(
      h.deps,
      weatherRequest(queue, weatherDataset(), { scope: skill.scope, skillId: skill.skillId, parentRevisionId: skill.revisionId, submit: true, options: { timeLimitMs: 1500 } }),
    );
    expect(Date.now() - started).toBeLessThan(45_000); // did not wait for the evaluator's 60 s (room for a loaded machine)
    expect(report.status).toBe('failed');
    expect(report.stopReason).toBe('time_limit');
    expect(report.error).toBe('the search did not finish within its time limit of 1500 ms');
    expect(report.promotionEligible).toBe(false);
    expect(report.bestCandidateId).toBeUndefined();
    expect(report.bestSpec).toBeUndefined();
    expect(report.submission).toEqual({ status: 'skipped', reason: 'the search exceeded its time limit: nothing was submitted' });
    expect(await h.store.readRevision(skill.scopeKey, skill.skillId, revisionIdFor(submissionJobId(report.experimentId), 0))).toBeUndefined();
    expect((await h.store.readActive(skill.scopeKey, skill.skillId))!.etag).toBe(before!.etag);
    // The evaluator was told to stop (it heartbeats) instead of finishing its 60 s of work. How
    // soon it hears depends on how loaded the machine is (a parallel suite on 2 cores: up to 12 s).
    const cancelled = await eventually('the evaluator to see the cancellation', async () =>
      h.windows.find((w) => w.workflowId.startsWith(report.workflowId) && w.outcome === 'cancelled'),
    );
    expect(cancelled.endedAt - cancelled.startedAt).toBeLessThan(30_000);
  });
});
