import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cancelExperiment, getExperiment, readExperimentRecords, resumeExperiment, runExperiment, startExperiment, waitForExperiment } from '../../client/optimization';
import { InputError, StateError } from '../../core/errors';
import type { ExperimentProgress, ExperimentReport } from '../../workflows';
import { experimentRecordKey } from '../../storage';
import { uniqueName } from '../support/infra';
import { startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';

let h: GepaHarness;
beforeAll(async () => {
  h = await startGepaHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** Everything about the search and its accounting except names, times and workflow runs. */
function outcome(r: ExperimentReport) {
  const { experimentId: _e, workflowId: _w, startedAt: _s, finishedAt: _f, runs: _r, resumes: _x, error: _err, ...rest } = r;
  return rest;
}

async function waitForProgress(experimentId: string, done: (p: ExperimentProgress) => boolean): Promise<ExperimentProgress> {
  for (let i = 0; i < 600; i++) {
    const view = await getExperiment(h.deps, experimentId);
    if (view.progress && done(view.progress)) return view.progress;
    if (view.status !== 'running') throw new Error(`experiment ${experimentId} ended (${view.status}) before the awaited progress`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`experiment ${experimentId} did not reach the awaited progress`);
}

describe('cancel and resume (real dev server, S3, model server, example evaluator on its task queue)', () => {
  it('a cancelled experiment stops with its records complete, and resumed it ends where an uninterrupted run with the same seed ends, re-running nothing finished', async () => {
    const dataset = weatherDataset({ seed: 31 });
    // Hits would make the two runs spend differently; every evaluation spends here (each run also has its own queue).
    const options = { maxIterations: 6, randomSeed: 13, evaluationCache: { hitsSpendBudget: true } };
    const fast = await h.addEvaluator({}, uniqueName('resume-a'));
    const slow = await h.addEvaluator({ evaluator: { caseDelayMs: 30 } }, uniqueName('resume-b'));

    const uninterrupted = await runExperiment(h.deps, weatherRequest(fast, dataset, { options }));
    expect(uninterrupted.status).toBe('completed');

    const started = await startExperiment(h.deps, weatherRequest(slow, dataset, { options }));
    await waitForProgress(started.experimentId, (p) => p.iteration >= 2);
    await expect(resumeExperiment(h.deps, started.experimentId)).rejects.toThrow(StateError); // still running
    const cancelled = (await cancelExperiment(h.main.client, started.experimentId))!;
    expect(cancelled).toMatchObject({ status: 'cancelled', stopReason: 'cancelled', promotionEligible: false });
    expect(cancelled.submission.status).toBe('not_requested');
    expect((await getExperiment(h.deps, started.experimentId)).status).toBe('cancelled');

    // Records complete: a log entry per finished iteration, a checkpoint at the last iteration boundary.
    const before = await readExperimentRecords(h.store, started.experimentId);
    const checkpoint = (await h.store.objects.getJson(`experiments/${started.experimentId}/state.json`, z.looseObject({ iteration: z.number() })))!.value;
    expect(checkpoint.iteration).toBeGreaterThanOrEqual(2);
    expect(before.log.map((l) => l.iteration)).toEqual(Array.from({ length: checkpoint.iteration }, (_, i) => i));
    const finishedBatches = new Set(before.evaluations.map((e) => e.recordId));

    const resumedAt = Date.now();
    const resumed = await resumeExperiment(h.deps, started.experimentId);
    expect(resumed).toMatchObject({ segment: 1, fromIteration: checkpoint.iteration });
    const report = await waitForExperiment(h.main.client, started.experimentId);
    expect(report.resumes).toBe(1);
    expect(outcome(report)).toEqual(outcome(uninterrupted));
    const after = await readExperimentRecords(h.store, started.experimentId);
    expect(after.log).toEqual((await readExperimentRecords(h.store, uninterrupted.experimentId)).log);

    // Nothing finished ran again: no evaluator call for a batch recorded before the resume.
    const rerun = h.windows.filter(
      (w) => w.startedAt >= resumedAt && w.workflowId.startsWith(`experiment/${started.experimentId}/eval/`) && finishedBatches.has(w.workflowId.split('/eval/')[1]),
    );
    expect(rerun).toEqual([]);
    // Both reports are kept: the cancelled one and the resumed one's; result.json is the latest.
    for (const segment of [0, 1]) expect(await h.store.objects.exists(experimentRecordKey(started.experimentId, `result-s${segment}`))).toBe(true);
    expect(await h.store.objects.exists(experimentRecordKey(started.experimentId, 'resume-s1'))).toBe(true);
  });

  it('a completed experiment resumes with a larger budget; too small a budget is refused with the numbers', async () => {
    const queue = await h.addEvaluator({}, uniqueName('resume-budget'));
    // |V| = 10, reserve 20, 16 per proposal: three proposals, then the budget stops it.
    const first = await runExperiment(
      h.deps,
      weatherRequest(queue, weatherDataset({ seed: 32 }), { options: { maxIterations: 20, maxMetricCalls: 10 + 20 + 16 * 3 + 9, randomSeed: 3 } }),
    );
    expect(first.stopReason).toBe('metric_budget');

    await expect(resumeExperiment(h.deps, first.experimentId)).rejects.toThrow(InputError);
    // Its checkpoint counts the Holdout it ran: another Holdout has to fit too.
    await expect(resumeExperiment(h.deps, first.experimentId)).rejects.toThrow(
      `experiment ${first.experimentId} cannot resume: maxMetricCalls 87 cannot cover ${first.metricCallsUsed} already used + holdout reserve 20 (2 × 10 holdout cases) = ${first.metricCallsUsed + 20} calls`,
    );
    await expect(resumeExperiment(h.deps, first.experimentId, { budget: 120 })).rejects.toThrow(
      new RegExp(`cannot resume: maxMetricCalls 120 allows \\d proposals? \\(${first.metricCallsUsed} already used \\+ holdout reserve 20`),
    );

    const resumed = await resumeExperiment(h.deps, first.experimentId, { budget: 400 });
    expect(resumed.proposalsPossible).toBeGreaterThanOrEqual(3);
    const report = await waitForExperiment(h.main.client, first.experimentId);
    expect(report.status).toBe('completed');
    expect(report.resumes).toBe(1);
    expect(report.iterations).toBeGreaterThan(first.iterations);
    expect(report.metricCallsUsed).toBeGreaterThan(first.metricCallsUsed);
    expect(report.metricCallsUsed).toBeLessThanOrEqual(400);
    const { log } = await readExperimentRecords(h.store, first.experimentId);
    expect(log.map((l) => l.iteration)).toEqual(Array.from({ length: report.iterations }, (_, i) => i));
  });

  it('a time-limited experiment resumes where it stopped and completes; with nothing left to run, a resume is refused', async () => {
    const queue = uniqueName('resume-time');
    await h.addEvaluator({ evaluator: { caseDelayMs: 100 } }, queue);
    const started = await startExperiment(h.deps, weatherRequest(queue, weatherDataset({ seed: 33 }), { options: { maxIterations: 4, randomSeed: 8, timeLimitMs: 8_000 } }));
    const limited = await waitForExperiment(h.main.client, started.experimentId);
    expect(limited).toMatchObject({ status: 'failed', stopReason: 'time_limit' });
    expect(limited.iterations).toBeLessThan(4);
    // A faster evaluator takes over the queue. Each resume gets the same time limit and continues where the last
    // segment stopped (on a loaded machine one segment may not be enough; none may go backwards).
    await h.stopEvaluators(queue);
    await h.addEvaluator({}, queue);
    let report = limited;
    let from = limited.iterations;
    for (let segment = 1; report.status !== 'completed'; segment++) {
      expect(segment).toBeLessThanOrEqual(6);
      const resumed = await resumeExperiment(h.deps, started.experimentId);
      expect(resumed).toMatchObject({ segment });
      expect(resumed.fromIteration).toBeGreaterThanOrEqual(from);
      from = resumed.fromIteration;
      report = await waitForExperiment(h.main.client, started.experimentId);
      expect(report.resumes).toBe(segment);
    }
    expect(report).toMatchObject({ status: 'completed', stopReason: 'max_iterations', iterations: 4 });
    await expect(resumeExperiment(h.deps, started.experimentId, { budget: 5000 })).rejects.toThrow(
      `experiment ${started.experimentId} has nothing left to run: its 4 iterations are done (raise them with --iterations N)`,
    );
  });
});
