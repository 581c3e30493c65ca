import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkflowFailedError } from '@temporalio/client';
import { readExperimentRecords, runExperiment, startExperiment } from '../../client/optimization';
import { experimentReader } from '../../storage/experiment-records';
import { InputError } from '../../core/errors';
import { experimentWorkflow } from '../../workflows';
import { failureMessage } from '../../core/failure-message';
import { uniqueName } from '../support/infra';
import { startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';

let h: GepaHarness;
beforeAll(async () => {
  h = await startGepaHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('budgets, ceilings, merge and selection (real dev server, S3, model server, example evaluator on its task queue)', () => {
  it('pre-flight: a budget that cannot afford three proposals is refused with the numbers, by the client and by the workflow', async () => {
    const dataset = weatherDataset({ seed: 41 });
    const tight = weatherRequest(h.evaluatorQueue, dataset, { options: { maxIterations: 10, maxMetricCalls: 70 } });
    const message =
      'maxMetricCalls 70 allows 2 proposals (seed validation 10 + holdout reserve 20 (2 × 10 holdout cases) + 16 per proposal (2 × minibatch 3 + 10 validation)), ' +
      'fewer than the 3 required: raise maxMetricCalls to at least 78';
    await expect(startExperiment(h.deps, tight)).rejects.toThrow(InputError);
    await expect(startExperiment(h.deps, tight)).rejects.toThrow(message);

    // Another SDK starting the workflow directly: it refuses before any metric call.
    await h.store.putDataset(dataset);
    const { dataset: _inline, ...rest } = tight;
    const handle = await h.main.client.workflow.start(experimentWorkflow, {
      workflowId: `experiment/${uniqueName('tight')}`,
      taskQueue: h.main.taskQueue,
      args: [{ request: { ...rest, datasetRef: { id: dataset.id, version: dataset.version } } }],
    });
    const failure = await handle.result().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(failureMessage(failure)).toContain(message);
    expect(h.windows.filter((w) => w.workflowId.startsWith(handle.workflowId))).toEqual([]);
  });

  it('a token ceiling stops the search before it is crossed; the reflector’s tokens count and the spend is reported', async () => {
    const queue = await h.addEvaluator({}, uniqueName('spend'));
    const options = { maxIterations: 30, randomSeed: 6, maxTokens: 40_000, evaluationCache: { enabled: false } };
    const report = await runExperiment(h.deps, weatherRequest(queue, weatherDataset({ seed: 42 }), { options }));
    expect(report.status).toBe('completed');
    expect(report.stopReason).toBe('token_budget');
    expect(report.iterations).toBeLessThan(30);
    expect(report.spend!.tokens).toBeLessThanOrEqual(40_000);
    expect(report.spend!.reflector.tokens).toBeGreaterThan(0);
    expect(report.spend!.tokens).toBe(report.spend!.evaluator.tokens + report.spend!.reflector.tokens);
    // The evaluator's spend is what it reported per case, summed over the records.
    const { evaluations } = await readExperimentRecords(h.store, report.experimentId);
    const reported = evaluations.flatMap((e) => e.evaluations).reduce((n, e) => n + (e.tokens ?? 0), 0);
    expect(report.spend!.evaluator.tokens).toBe(reported);
  });

  it('a cost ceiling counts the evaluator’s cost and the priced reflector', async () => {
    const queue = await h.addEvaluator({}, uniqueName('cost'));
    const pricing = { promptUsdPerMillionTokens: 3, completionUsdPerMillionTokens: 15 };
    const options = { maxIterations: 30, randomSeed: 6, maxCostUsd: 0.06, reflectorPricing: pricing, evaluationCache: { enabled: false } };
    const report = await runExperiment(h.deps, weatherRequest(queue, weatherDataset({ seed: 42 }), { options }));
    expect(report.stopReason).toBe('cost_budget');
    expect(report.spend!.costUsd).toBeLessThanOrEqual(0.06);
    expect(report.spend!.reflector.costUsd).toBeGreaterThan(0);
    expect(report.spend!.evaluator.costUsd).toBeGreaterThan(0);
  });

  it('merge: two frontier candidates that improved different components are combined, judged on a subsample, and kept with their lineage', async () => {
    // The example evaluator's overrides shape a landscape with specialists: steps rewritten by the reflector
    // ("Make sure to …") win validation cases 1-3, pitfalls ("Do not forget to …") win 4-6, and a skill without the
    // steps rewrite keeps case 7, so the seed stays on the frontier and gets a second child.
    const v = (n: number) => `weather-validation-${String(n).padStart(3, '0')}`;
    const scoreOverrides = [
      ...[1, 2, 3].map((n) => ({ caseId: v(n), score: 1, whenSpecMatches: 'Make sure to' })),
      ...[4, 5, 6].map((n) => ({ caseId: v(n), score: 1, whenSpecMatches: 'Do not forget' })),
      { caseId: v(7), score: 1, whenSpecMatches: '^(?![\\s\\S]*Make sure to)' },
    ];
    const queue = await h.addEvaluator({ evaluator: { scoreOverrides } }, uniqueName('merge'));
    const options = { maxIterations: 6, randomSeed: 11, merge: { enabled: true, maxMerges: 3, subsampleSize: 4 } };
    const report = await runExperiment(h.deps, weatherRequest(queue, weatherDataset({ seed: 43 }), { options }));
    expect(report.status).toBe('completed');
    const { log, evaluations } = await readExperimentRecords(h.store, report.experimentId);
    const merges = log.filter((l) => l.kind === 'merge');
    expect(report.merges).toEqual({ attempted: merges.length, accepted: merges.filter((m) => m.accepted).length });
    const accepted = merges.find((m) => m.accepted)!;
    expect(accepted).toBeDefined();
    expect(accepted.reason).toMatch(/^accepted merge: total \d\.\d{4} > better parent c-[0-9a-f]{16} \d\.\d{4} on 4 validation cases$/);
    // The merge came right after a reflective child was accepted, as GEPA schedules it.
    expect(log[accepted.iteration - 1]).toMatchObject({ kind: 'reflection', accepted: true });

    // Lineage: its two parents descend from the common ancestor, and it took steps from one and pitfalls from the other.
    const state = (await experimentReader(h.store).checkpoint(report.experimentId))!;
    const byId = new Map(state.candidates.map((c) => [c.id, c]));
    const merged = byId.get(accepted.childId!)!;
    const [first, second] = accepted.mergeParentIds!.map((id) => byId.get(id)!);
    expect(merged).toMatchObject({ parentId: first.id, mergedFrom: [first.id, second.id], ancestorId: accepted.ancestorId });
    expect(first.parentId).toBe(accepted.ancestorId);
    expect(second.parentId).toBe(accepted.ancestorId);
    const withSteps = [first, second].find((c) => c.mutatedComponent === 'steps')!;
    const withPitfalls = [first, second].find((c) => c.mutatedComponent === 'pitfalls')!;
    expect(merged.spec.steps).toEqual(withSteps.spec.steps);
    expect(merged.spec.pitfalls).toEqual(withPitfalls.spec.pitfalls);
    // Scored on the subsample, then on the rest of Validation, both under the Validation seed; every call accounted for.
    const tag = `e-i${String(accepted.iteration).padStart(4, '0')}`;
    const validationSeed = evaluations.find((e) => e.recordId === 'e-seed-validation')!.seed;
    const sub = evaluations.find((e) => e.recordId === `${tag}-m1-subsample`)!;
    const rest = evaluations.find((e) => e.recordId === `${tag}-m2-validation`)!;
    expect([sub.seed, rest.seed]).toEqual([validationSeed, validationSeed]);
    expect([...sub.caseIds, ...rest.caseIds].sort()).toEqual(Array.from({ length: 10 }, (_, i) => v(i + 1)));
    expect(merged.validationScores).toHaveLength(10);
    expect(evaluations.reduce((n, e) => n + (e.charged ?? e.caseIds.length), 0)).toBe(report.metricCallsUsed);
  });

  it('multi-seed selection re-runs the finalists under extra seeds from a reserved budget; k-fold chooses with no extra call', async () => {
    const queue = await h.addEvaluator({}, uniqueName('select'));
    const dataset = weatherDataset({ seed: 44 });
    const multi = await runExperiment(
      h.deps,
      weatherRequest(queue, dataset, {
        options: { maxIterations: 5, randomSeed: 4, selection: { method: 'multi_seed', seeds: 3, finalists: 2 }, evaluationCache: { hitsSpendBudget: true } },
      }),
    );
    expect(multi.status).toBe('completed');
    expect(multi.selection).toMatchObject({ method: 'multi_seed', winnerId: multi.bestCandidateId });
    expect(multi.selection!.finalists).toHaveLength(2);
    for (const f of multi.selection!.finalists!) expect(f.seeds).toHaveLength(3);
    const records = await readExperimentRecords(h.store, multi.experimentId);
    const selection = records.evaluations.filter((e) => e.phase === 'selection');
    expect(selection).toHaveLength(2 * 2);
    expect(new Set(selection.map((e) => e.seed)).size).toBe(2);
    expect(records.evaluations.reduce((n, e) => n + (e.charged ?? e.caseIds.length), 0)).toBe(multi.metricCallsUsed);

    const kfold = await runExperiment(h.deps, weatherRequest(queue, dataset, { options: { maxIterations: 5, randomSeed: 4, selection: { method: 'k_fold', folds: 5 } } }));
    expect(kfold.selection).toMatchObject({ method: 'k_fold', winnerId: kfold.bestCandidateId });
    expect(kfold.selection!.folds!.map((f) => f.caseCount)).toEqual([2, 2, 2, 2, 2]);
    expect(kfold.selection!.crossValidatedMean).toBeGreaterThan(0);
    const kRecords = await readExperimentRecords(h.store, kfold.experimentId);
    expect(kRecords.evaluations.filter((e) => e.phase === 'selection')).toEqual([]);
  });

  it('an objective frontier (score and tokens) keeps the cheapest candidate a parent after a better one dominates it on every case', async () => {
    const queue = await h.addEvaluator({}, uniqueName('frontier'));
    const dataset = weatherDataset({ seed: 47, feedback: 20 });
    const run = (type: 'instance' | 'objective') =>
      runExperiment(h.deps, weatherRequest(queue, dataset, { options: { maxIterations: 8, randomSeed: 5, reflectionBatchSize: 1, frontier: { type } } }));
    const parentsAfterFirstChild = async (experimentId: string) => {
      const { log } = await readExperimentRecords(h.store, experimentId);
      const first = log.findIndex((l) => l.accepted);
      return { seedId: log[0].parentId, parents: log.slice(first + 1).map((l) => l.parentId) };
    };
    // Instance frontier: the seed's first child is better on every validation case, so the seed is never sampled again.
    const instance = await parentsAfterFirstChild((await run('instance')).experimentId);
    expect(instance.parents).not.toContain(instance.seedId);
    // Objective frontier (score, tokens): the seed, the cheapest skill, leads the tokens front and is sampled again.
    const objective = await parentsAfterFirstChild((await run('objective')).experimentId);
    expect(objective.parents).toContain(objective.seedId);
  });
});
