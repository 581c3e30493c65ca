/**
 * The floor of the learning-job design on a given Temporal server: a workflow pair with
 * exactly the shape of a learning job (a session entity reached by signal-with-start that
 * runs one child per segment, the child running the activities of a reviewed job that
 * creates and publishes one skill), with no-op activity bodies and nothing else.
 */
import { condition, defineSignal, executeChild, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { FloorActivities } from './activities';

export interface FloorSegment {
  segmentId: string;
  jobWorkflowId: string;
  /**
   * Every step as a task-queue activity: the job's shape when issue 8 was filed, before the
   * S3 steps became local activities. Kept as a second yardstick.
   */
  allRemote?: boolean;
}

export const floorSegmentSignal = defineSignal<[FloorSegment]>('submitSegment');

/** The steps of a reviewed job that publishes one skill, in order, each a local or a task-queue activity as in the job. */
export const FLOOR_JOB_STEPS = [
  { name: 'prepareReview', local: true },
  { name: 'reviewSession', local: false },
  { name: 'advanceCursorAndPlan', local: false },
  { name: 'recordRevision', local: true },
  { name: 'publishRevision', local: false },
  { name: 'recordJobOutcome', local: true },
] as const;

const options = { startToCloseTimeout: '1 minute', retry: { initialInterval: '1 second', maximumInterval: '30 seconds' } } as const;
const remote = proxyActivities<FloorActivities>(options);
const local = proxyLocalActivities<FloorActivities>(options);

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
  for (const [step, { local: isLocal }] of FLOOR_JOB_STEPS.entries()) {
    await (isLocal && !segment.allRemote ? local : remote).noop({ segmentId: segment.segmentId, step });
  }
  return segment.segmentId;
}
