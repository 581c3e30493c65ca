/**
 * The floor of the learning-job design on a given Temporal server: a workflow pair with
 * exactly the shape of a learning job (a session entity reached by signal-with-start that
 * runs one child per segment, the child running as many activities as a reviewed job that
 * creates and publishes one skill), with no-op activity bodies and nothing else.
 */
import { condition, defineSignal, executeChild, proxyActivities, setHandler } from '@temporalio/workflow';
import type { FloorActivities } from './activities';

export interface FloorSegment {
  segmentId: string;
  jobWorkflowId: string;
}

export const floorSegmentSignal = defineSignal<[FloorSegment]>('submitSegment');

/** Activities of a reviewed job: prepareReview, reviewSession, advanceCursor, recordRevision, publishRevision, recordJobOutcome. */
export const FLOOR_ACTIVITY_COUNT = 6;

const act = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute', retry: { initialInterval: '1 second', maximumInterval: '30 seconds' } });

export async function floorSessionWorkflow(input: { idleTimeoutMs?: number } = {}): Promise<number> {
  const queue: FloorSegment[] = [];
  let processed = 0;
  setHandler(floorSegmentSignal, (segment) => {
    queue.push(segment);
  });
  for (;;) {
    if (!(await condition(() => queue.length > 0, input.idleTimeoutMs ?? 10 * 60_000))) return processed;
    const segment = queue.shift()!;
    await executeChild(floorJobWorkflow, { workflowId: segment.jobWorkflowId, args: [segment] });
    processed++;
  }
}

export async function floorJobWorkflow(segment: FloorSegment): Promise<string> {
  for (let i = 0; i < FLOOR_ACTIVITY_COUNT; i++) await act.noop({ segmentId: segment.segmentId, step: i });
  return segment.segmentId;
}
