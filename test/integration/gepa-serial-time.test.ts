import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infraEnv } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';
import { startProcess, type StartedProcess } from '../../bench/support/processes';
import { temporal } from '@temporalio/proto';
import { runExperiment } from '../../client/optimization';
import { evaluationWorkflowId } from '../../core/workflow-ids';
import { recordIds } from '../../core/gepa/ids';
import { uniqueName } from '../support/infra';
import { startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';
import { activitySteps } from '../support/history';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../../workers/in-process';

type History = temporal.api.history.v1.IHistory;
type Event = temporal.api.history.v1.IHistoryEvent;

let h: GepaHarness;
beforeAll(async () => {
  h = await startGepaHarness();
});
afterAll(async () => {
  await h?.stop();
});

const ms = (e: Event) => Number(e.eventTime!.seconds) * 1000 + Math.round(Number(e.eventTime!.nanos ?? 0) / 1e6);

/** An event's type and, for activities, the activity's name. */
function eventName(e: Event): string {
  const type = String(temporal.api.enums.v1.EventType[e.eventType as number] ?? e.eventType).replace('EVENT_TYPE_', '');
  const activity = e.activityTaskScheduledEventAttributes?.activityType?.name;
  return activity ? `${type} ${activity}` : type;
}

/** The evaluateCandidate windows of one batch (started → completed) and its start and end. */
function batchTimes(history: History) {
  const events = history.events ?? [];
  const scheduled = new Map<string, string>();
  for (const e of events) if (e.activityTaskScheduledEventAttributes) scheduled.set(String(e.eventId), e.activityTaskScheduledEventAttributes.activityType!.name!);
  const started = events
    .filter((e) => e.activityTaskStartedEventAttributes && scheduled.get(String(e.activityTaskStartedEventAttributes.scheduledEventId)) === 'evaluateCandidate')
    .map(ms);
  const completed = events
    .filter((e) => e.activityTaskCompletedEventAttributes && scheduled.get(String(e.activityTaskCompletedEventAttributes.scheduledEventId)) === 'evaluateCandidate')
    .map(ms);
  return { start: ms(events[0]!), firstChunk: Math.min(...started), lastChunk: Math.max(...completed), end: ms(events.at(-1)!), chunks: completed.length };
}

/**
 * Where one experiment's wall time goes when two evaluator workers share its batches (the
 * shape of `npm run bench -- gepa`: seed Validation, then Holdout, no iterations): the
 * time before the first chunk, between the batches and after the last one is serial
 * orchestration that a second worker does not halve. Prints the figures; checks the steps
 * and that the histories replay.
 */
describe('GEPA serial time (real dev server, S3, two in-process evaluators on one queue)', () => {
  it('prints the serial gaps of one experiment with two evaluator workers', async () => {
    const queue = uniqueName('serial-eval');
    // As in the bench: each worker its own process (one process may not run two workers on one queue), one call at a time.
    const evaluators: StartedProcess[] = await Promise.all(
      [0, 1].map((i) =>
        startProcess(
          process.execPath,
          [join(REPO_ROOT, 'bin', 'evolution.js'), 'evaluator-worker', '--task-queue', queue, '--identity', `${queue}-${i}`, '--max-concurrent', '1', '--case-delay-ms', '100'],
          { env: infraEnv(), readyLine: 'polling task queue' },
        ),
      ),
    );
    try {
      const rounds = Number(process.env.SERIAL_ROUNDS ?? 3);
      const histories: { workflowId: string; history: History }[] = [];
      for (let round = 0; round < rounds; round++) {
        const request = weatherRequest(queue, weatherDataset({ validation: 40, holdout: 20 }), {
          options: { maxIterations: 0, evaluationChunkSize: 5, evaluationConcurrency: 4, randomSeed: 100 + round }, // another seed each round: no cache hits
        });
        const report = await runExperiment(h.deps, request);
        expect(report.status).toBe('completed');
        const client = h.deps.client;
        const batchIds = [recordIds.seedValidation, recordIds.holdoutSeedOf(0)];
        const parent = await client.workflow.getHandle(report.workflowId).fetchHistory();
        const children = await Promise.all(batchIds.map((id) => client.workflow.getHandle(evaluationWorkflowId(report.workflowId, id)).fetchHistory()));
        const [validation, holdout] = children.map(batchTimes);
        expect(validation!.chunks).toBe(8);
        expect(holdout!.chunks).toBe(4);
        const start = ms(parent.events![0]!);
        const end = ms(parent.events!.at(-1)!);
        const gaps = {
          toFirstChunk: validation!.firstChunk - start,
          validationChunks: validation!.lastChunk - validation!.firstChunk,
          betweenBatches: holdout!.firstChunk - validation!.lastChunk,
          holdoutChunks: holdout!.lastChunk - holdout!.firstChunk,
          tail: end - holdout!.lastChunk,
        };
        const serial = gaps.toFirstChunk + gaps.betweenBatches + gaps.tail;
        console.log(
          `round ${round + 1}: wall ${end - start} ms (ideal 3000), serial ${serial} ms = start→first chunk ${gaps.toFirstChunk} + between batches ${gaps.betweenBatches} + tail ${gaps.tail}; chunks: validation ${gaps.validationChunks} ms, holdout ${gaps.holdoutChunks} ms`,
        );
        console.log(`  experiment: ${activitySteps(parent).join(', ')}`);
        for (const [i, c] of children.entries()) console.log(`  batch ${i}: ${activitySteps(c).join(', ')}`);
        // The steps this test is about: the evaluator asked beside prepare and beside each batch's chunks, the progress written beside the Holdout, the checkpoint with the result.
        expect(activitySteps(parent)).toEqual(['describeEvaluator', 'prepareExperiment', 'recordExperimentProgress', 'local:recordExperimentResult']);
        for (const c of children) expect(activitySteps(c).slice(0, 3)).toEqual(['local:prepareEvaluationBatch', 'describeEvaluator', 'evaluateCandidate']);
        histories.push(
          { workflowId: report.workflowId, history: parent },
          ...children.map((history, i) => ({ workflowId: evaluationWorkflowId(report.workflowId, batchIds[i]!), history })),
        );
        if (process.env.SERIAL_EVENTS) {
          const timeline = [parent, ...children].flatMap((hist, i) =>
            hist.events!.map((e) => ({ t: ms(e) - start, what: `${['experiment', 'validation', 'holdout'][i]} ${eventName(e)}` })),
          );
          for (const e of timeline.sort((a, b) => a.t - b.t)) console.log(`    ${String(e.t).padStart(5)} ${e.what}`);
        }
      }
      // Histories recorded on these steps replay on this code.
      const bundle = await workflowBundle();
      for (const { workflowId, history } of histories) await Worker.runReplayHistory({ workflowBundle: bundle, replayName: uniqueName('serial-replay') }, history, workflowId);
    } finally {
      await Promise.all(evaluators.map((e) => e.stop()));
    }
  }, 180_000);
});
