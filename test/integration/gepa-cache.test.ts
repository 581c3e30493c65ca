import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExperimentRecords, runExperiment } from '../../client/optimization';
import type { ExperimentReport } from '../../workflows';
import { uniqueName } from '../support/infra';
import { startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';
import { Worker } from '@temporalio/worker';
import { connectWorkerTemporal } from '../../workers/connection';
import { weatherEvaluatorActivities } from '../../workers/evaluator';
import { evolutionDataConverter } from '../../codec/data-converter';
import type { EvaluatorDescription } from '../../core';

let h: GepaHarness;
beforeAll(async () => {
  h = await startGepaHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** What the search did, without names, times and accounting. */
function searchOf(r: ExperimentReport) {
  return { best: r.bestCandidateId, mean: r.bestValidationMean, iterations: r.iterations, candidates: r.candidateCount, holdout: r.holdout, stop: r.stopReason };
}

describe('evaluation cache (real dev server, S3, model server, example evaluator on its task queue)', () => {
  it('the same dataset run twice: the second run is answered by the cache, so the evaluator runs half the evaluations of both', async () => {
    const queue = await h.addEvaluator({}, uniqueName('cache-eval'));
    const dataset = weatherDataset({ seed: 21 });
    const request = weatherRequest(queue, dataset, { options: { maxIterations: 4, randomSeed: 5 } });

    const first = await runExperiment(h.deps, request);
    const firstCases = h.evaluatedCases(queue, first.experimentId);
    expect(first.status).toBe('completed');
    expect(first.cacheHits).toBe(0);
    expect(firstCases).toBe(first.metricCallsUsed);

    const second = await runExperiment(h.deps, request);
    const secondCases = h.evaluatedCases(queue, second.experimentId);
    expect(searchOf(second)).toEqual(searchOf(first)); // same verdicts, same trajectory
    expect(secondCases).toBe(0);
    expect(second.metricCallsUsed).toBe(0); // hits spend no metric calls by default
    expect(second.cacheHits).toBe(firstCases);
    expect(firstCases + secondCases).toBe((first.metricCallsUsed + second.cacheHits!) / 2);
    // Hits cost no evaluator tokens or money either; the reflector still ran.
    expect(first.spend!.evaluator.tokens).toBeGreaterThan(0);
    expect(second.spend!.evaluator).toEqual({ tokens: 0, costUsd: 0 });
    expect(second.spend!.reflector.tokens).toBeGreaterThan(0);

    // The records say which evaluations came from the cache, and under which versions.
    const records = await readExperimentRecords(h.store, second.experimentId);
    for (const e of records.evaluations) {
      expect(e.cacheHits).toEqual(e.caseIds);
      expect(e.charged).toBe(0);
      expect(e.evaluator).toEqual({ evaluatorVersion: 'weather-evaluator@2', modelVersion: 'simulated-weather-1' });
    }
    expect(records.log.every((l) => l.cacheHits !== undefined && l.cacheHits > 0)).toBe(true);
  });

  it('hits can be made to spend the budget: then a cached run charges what an uncached one does', async () => {
    const queue = await h.addEvaluator({}, uniqueName('cache-spend'));
    const request = weatherRequest(queue, weatherDataset({ seed: 22 }), { options: { maxIterations: 3, randomSeed: 2, evaluationCache: { hitsSpendBudget: true } } });
    const first = await runExperiment(h.deps, request);
    const second = await runExperiment(h.deps, request);
    expect(h.evaluatedCases(queue, second.experimentId)).toBe(0);
    expect(second.cacheHits).toBe(first.metricCallsUsed);
    expect(second.metricCallsUsed).toBe(first.metricCallsUsed);
  });

  it('a changed evaluator version or model version never hits', async () => {
    const queue = uniqueName('cache-versions');
    const request = weatherRequest(queue, weatherDataset({ seed: 23 }), { options: { maxIterations: 2, randomSeed: 9 } });
    await h.addEvaluator({ evaluator: { evaluatorVersion: 'rubric-1', modelVersion: 'model-a' } }, queue);
    const warm = await runExperiment(h.deps, request);
    expect(warm.cacheHits).toBe(0);
    const again = await runExperiment(h.deps, request);
    expect(again.cacheHits).toBe(warm.metricCallsUsed);

    for (const versions of [
      { evaluatorVersion: 'rubric-2', modelVersion: 'model-a' },
      { evaluatorVersion: 'rubric-1', modelVersion: 'model-b' },
    ]) {
      await h.stopEvaluators(queue);
      await h.addEvaluator({ evaluator: versions }, queue);
      const changed = await runExperiment(h.deps, request);
      expect(changed.cacheHits).toBe(0);
      expect(h.evaluatedCases(queue, changed.experimentId)).toBe(changed.metricCallsUsed);
      const records = await readExperimentRecords(h.store, changed.experimentId);
      expect(records.evaluations[0].evaluator).toEqual(versions);
    }
  });

  it('versions that change during an experiment never hit: the cache is read under the versions the last batch saw, and what it answered runs again when the evaluator now says otherwise', async () => {
    const queue = uniqueName('cache-changing');
    const before: EvaluatorDescription = { evaluatorVersion: 'rubric-1', modelVersion: 'model-a' };
    const after: EvaluatorDescription = { evaluatorVersion: 'rubric-2', modelVersion: 'model-a' };
    let answer = before;
    let describes = 0;
    let evaluated = 0;
    let warmDescribes = Number.POSITIVE_INFINITY;
    const weather = weatherEvaluatorActivities({ ...before, onEvaluate: (call) => (evaluated += call.cases) });
    const connection = await connectWorkerTemporal(h.config);
    const worker = await Worker.create({
      connection,
      namespace: h.config.temporal.namespace,
      taskQueue: queue,
      dataConverter: evolutionDataConverter(h.config),
      activities: {
        evaluateCandidate: weather.evaluateCandidate,
        describeEvaluator: async () => {
          describes++;
          const now = answer;
          // Only the first ask of the changed run (when the experiment starts) still hears the old versions: a deploy right after it.
          if (answer === before && describes > warmDescribes) answer = after;
          return now;
        },
      },
    });
    const running = worker.run();
    try {
      const request = weatherRequest(queue, weatherDataset({ seed: 25 }), { options: { maxIterations: 2, randomSeed: 3 } });
      const warm = await runExperiment(h.deps, request);
      expect(warm.cacheHits).toBe(0);
      warmDescribes = describes;
      const warmCases = evaluated;
      expect(warmCases).toBe(warm.metricCallsUsed);

      const changed = await runExperiment(h.deps, request);
      expect(answer).toBe(after);
      expect(changed.cacheHits).toBe(0);
      expect(evaluated - warmCases).toBe(changed.metricCallsUsed);
      const records = await readExperimentRecords(h.store, changed.experimentId);
      for (const e of records.evaluations) {
        expect(e.evaluator).toEqual(after);
        expect(e.cacheHits).toEqual([]);
      }
    } finally {
      worker.shutdown();
      await running;
      await connection.close();
    }
  });

  it('an evaluator that does not describe its versions is never cached; the option turns the cache off', async () => {
    const silent = await h.addEvaluator({ evaluator: { describe: false } }, uniqueName('cache-silent'));
    const request = weatherRequest(silent, weatherDataset({ seed: 24 }), { options: { maxIterations: 1, randomSeed: 4 } });
    await runExperiment(h.deps, request);
    const repeat = await runExperiment(h.deps, request);
    expect(repeat.cacheHits).toBe(0);
    expect(h.evaluatedCases(silent, repeat.experimentId)).toBe(repeat.metricCallsUsed);
    const records = await readExperimentRecords(h.store, repeat.experimentId);
    expect(records.evaluations.every((e) => e.evaluator === undefined)).toBe(true);

    const queue = await h.addEvaluator({}, uniqueName('cache-off'));
    const off = weatherRequest(queue, weatherDataset({ seed: 24 }), { options: { maxIterations: 1, randomSeed: 4, evaluationCache: { enabled: false } } });
    await runExperiment(h.deps, off);
    const offAgain = await runExperiment(h.deps, off);
    expect(offAgain.cacheHits).toBe(0);
    expect(h.evaluatedCases(queue, offAgain.experimentId)).toBe(offAgain.metricCallsUsed);
  });
});
