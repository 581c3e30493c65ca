import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RawValue, type Payload } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { WorkflowFailedError } from '@temporalio/client';
import { resolveRequest, runExperiment, startExperiment } from '../../client/optimization';
import { StateError } from '../../core/errors';
import { experimentWorkflow } from '../../workflows';
import { experimentWorkflowId } from '../../core/workflow-ids';
import { uniqueName } from '../support/infra';
import { publishNewRevision, seedManagedSkill, startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';

// Issue 10 items 4-6 with the real evaluator task queue: test evaluator workers that answer
// like a Python SDK (bare NaN in JSON), never answer, or hang the batch's workflow task.
let h: GepaHarness;
let connection: NativeConnection;
const workers: { worker: Worker; running: Promise<void> }[] = [];
/** Evaluate calls seen by the test evaluators. */
const calls: { queue: string; experimentId: string }[] = [];
const callsOf = (experimentId: string) => calls.filter((c) => c.experimentId === experimentId);
const callsOn = (queue: string) => calls.filter((c) => c.queue === queue);

beforeAll(async () => {
  h = await startGepaHarness();
  connection = await NativeConnection.connect({ address: h.config.temporal.address });
});
afterAll(async () => {
  for (const w of workers) {
    w.worker.shutdown();
    await w.running.catch(() => undefined);
  }
  await connection?.close();
  await h?.stop();
});

type EvaluateInput = { experimentId: string; cases: { id: string }[] };

/** An evaluator worker on its own queue whose evaluateCandidate is `evaluate`. */
async function evaluatorQueue(evaluate: (input: EvaluateInput) => Promise<unknown>): Promise<string> {
  const taskQueue = uniqueName('eval-fault');
  const worker = await Worker.create({
    connection,
    namespace: h.config.temporal.namespace,
    taskQueue,
    // The never-answering evaluator ignores cancellation: shut down without waiting for it.
    shutdownForceTime: '2 seconds',
    activities: {
      async evaluateCandidate(input: EvaluateInput) {
        calls.push({ queue: taskQueue, experimentId: input.experimentId });
        return evaluate(input);
      },
    },
  });
  workers.push({ worker, running: worker.run() });
  return taskQueue;
}

/** A JSON payload written byte for byte, as another SDK's encoder writes it. */
function jsonAsWritten(text: string): RawValue {
  const payload: Payload = { metadata: { encoding: new TextEncoder().encode('json/plain') }, data: new TextEncoder().encode(text) };
  return RawValue.fromPayload(payload);
}

describe('evaluator output (item 4)', () => {
  it('a bare NaN score (Python json.dumps) fails that batch without retry, naming the case', async () => {
    const queue = await evaluatorQueue(async ({ cases }) =>
      jsonAsWritten(`[${cases.map((c, i) => `{"caseId":${JSON.stringify(c.id)},"score":${i === 0 ? 'NaN' : '0.5'}}`).join(',')}]`),
    );
    const dataset = weatherDataset();
    const report = await runExperiment(h.deps, weatherRequest(queue, dataset, { options: { evaluationChunkSize: 100 } }));
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(new RegExp(`case "${dataset.validation[0].id}": score must be a finite number in \\[0, 1\\]`));
    // One call for the seed's Validation batch: the contract violation was not retried.
    expect(callsOf(report.experimentId)).toHaveLength(1);
  });

  it('Infinity in objectives fails the batch naming the case; null optional fields mean absent', async () => {
    const queue = await evaluatorQueue(async ({ cases }) =>
      jsonAsWritten(
        `[${cases.map((c, i) => `{"caseId":${JSON.stringify(c.id)},"score":0.5,"output":null,"feedback":null,"trace":null,"objectives":${i === 1 ? '{"cost":Infinity}' : 'null'}}`).join(',')}]`,
      ),
    );
    const dataset = weatherDataset();
    const report = await runExperiment(h.deps, weatherRequest(queue, dataset, { options: { evaluationChunkSize: 100 } }));
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(new RegExp(`case "${dataset.validation[1].id}"\\): objectives\\.cost: objective values must be finite numbers`));
    expect(report.error).not.toMatch(/output|feedback|trace/);
  });
});

describe('the time limit bounds the run (item 5)', () => {
  it('an evaluator that never answers (no heartbeat, ignores cancellation): the experiment ends failed at its limit', async () => {
    const queue = await evaluatorQueue(() => new Promise(() => undefined));
    const report = await runExperiment(h.deps, weatherRequest(queue, weatherDataset(), { options: { timeLimitMs: 2000 } }));
    expect(report).toMatchObject({ status: 'failed', stopReason: 'time_limit', error: 'the search did not finish within its time limit of 2000 ms' });
  });

  it('an evaluator whose answer hangs the batch workflow task: the experiment ends failed and the stuck batch is terminated', async () => {
    // A payload no converter can decode: the batch's workflow task fails on every attempt.
    const undecodable = RawValue.fromPayload({ metadata: { encoding: new TextEncoder().encode('binary/never-decodable') }, data: new Uint8Array([1, 2, 3]) });
    const queue = await evaluatorQueue(async () => undecodable);
    const report = await runExperiment(h.deps, weatherRequest(queue, weatherDataset(), { options: { timeLimitMs: 2000 } }));
    expect(report).toMatchObject({ status: 'failed', stopReason: 'time_limit', error: 'the search did not finish within its time limit of 2000 ms' });
    const batch = h.main.client.workflow.getHandle(`${report.workflowId}/eval/e-seed-validation`);
    // The server applies the parent-close policy after the parent has closed, asynchronously.
    await vi.waitFor(async () => expect((await batch.describe()).status.name).toBe('TERMINATED'), { timeout: 30_000, interval: 200 });
  });
});

describe('fail early (item 6)', () => {
  it('startExperiment refuses a stale parent or an unmanaged skill before any metric call', async () => {
    const queue = await evaluatorQueue(async () => []);
    const stale = await seedManagedSkill(h.store);
    await publishNewRevision(h.store, stale);
    const staleStart = startExperiment(
      h.deps,
      weatherRequest(queue, weatherDataset(), { scope: stale.scope, skillId: stale.skillId, parentRevisionId: stale.revisionId, submit: true }),
    );
    await expect(staleStart).rejects.toBeInstanceOf(StateError);
    await expect(staleStart).rejects.toThrow(
      new RegExp(`experiment refused: stale parent: the active revision of skill ${stale.skillId} is rev-newer-.*, not ${stale.revisionId}`),
    );

    const unmanaged = await seedManagedSkill(h.store, { managed: false });
    await expect(
      startExperiment(
        h.deps,
        weatherRequest(queue, weatherDataset(), { scope: unmanaged.scope, skillId: unmanaged.skillId, parentRevisionId: unmanaged.revisionId, submit: true }),
      ),
    ).rejects.toThrow(/experiment refused: skill .* is not in the managed area/);
    expect(callsOn(queue)).toEqual([]);
  });

  it('the experiment itself (a scheduled run, another client) refuses them in its prepare step, before any evaluation', async () => {
    const queue = await evaluatorQueue(async () => []);
    const unmanaged = await seedManagedSkill(h.store, { managed: false });
    const stale = await seedManagedSkill(h.store);
    await publishNewRevision(h.store, stale);
    const cases = [
      { skill: unmanaged, parentRevisionId: 'active', expected: /is not in the managed area/ },
      { skill: stale, parentRevisionId: stale.revisionId, expected: /stale parent: the active revision of skill .* is rev-newer-/ },
    ];
    for (const c of cases) {
      const { request } = await resolveRequest(
        h.store,
        weatherRequest(queue, weatherDataset(), { scope: c.skill.scope, skillId: c.skill.skillId, parentRevisionId: c.parentRevisionId, submit: true }),
      );
      const experimentId = uniqueName('exp-refused');
      const handle = await h.main.client.workflow.start(experimentWorkflow, {
        taskQueue: h.main.taskQueue,
        workflowId: experimentWorkflowId(experimentId),
        args: [{ request: { ...request, experimentId } }],
      });
      const err = await handle.result().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect((err as WorkflowFailedError).cause?.message).toMatch(c.expected);
      expect(callsOf(experimentId)).toEqual([]);
    }
  });
});
