/**
 * The floor of the learning-job design on a given Temporal server: the workflows of a
 * learning job with exactly its shape (a session entity reached by signal-with-start that
 * runs one child per segment, the child running the steps of a reviewed job that creates
 * and publishes one skill, the publication signalling the scope's index entity and the
 * scope's usage entity, each of which takes the signals in bursts), with no-op activity
 * bodies and nothing else.
 */
import { condition, continueAsNew, defineSignal, executeChild, proxyActivities, proxyLocalActivities, setHandler, type SignalDefinition } from '@temporalio/workflow';
import { indexHistoryFull } from '../../workflows/scope-index';
import { deadlineWaiter } from '../../workflows/alarm';
import type { FloorActivities } from './activities';

export interface FloorSegment {
  segmentId: string;
  jobWorkflowId: string;
  /**
   * Every step as a task-queue activity, and no index entity: the job's shape when issue 8
   * was filed, before the S3 steps became local activities. Kept as a second yardstick.
   */
  allRemote?: boolean;
  /**
   * The index entity the publication step signals (signal-with-start), as a job's
   * publication signals its scope's index workflow: one per scope. Absent: none.
   */
  indexWorkflowId?: string;
  /**
   * The usage entity the publication step signals (signal-with-start), as a job's last
   * write signals its scope's usage workflow with what it recorded: one per scope. Absent: none.
   */
  usageWorkflowId?: string;
}

export const floorSegmentSignal = defineSignal<[FloorSegment]>('submitSegment');
export const floorIndexChangeSignal = defineSignal<{ segmentId: string }[]>('indexChange');
export const floorUsageRecordsSignal = defineSignal<{ segmentId: string }[]>('usageRecords');

/** The steps of a reviewed job that publishes one skill, in order, each a local or a task-queue activity as in the job. */
export const FLOOR_JOB_STEPS = [
  { name: 'prepareReview', local: true },
  { name: 'reviewSession', local: false },
  { name: 'recordAndPublishRevision', local: false, signalsIndex: true, signalsUsage: true },
] as const;

/** The steps of the same job when issue 8 was filed, after loadGovernance merged into prepareReview: the issue-floor runs them, every one a task-queue activity. */
export const ISSUE_FLOOR_JOB_STEPS = ['prepareReview', 'reviewSession', 'advanceCursorAndPlan', 'recordRevision', 'publishRevision', 'recordJobOutcome'] as const;

const options = { startToCloseTimeout: '1 minute', retry: { initialInterval: '1 second', maximumInterval: '30 seconds' } } as const;
const remote = proxyActivities<FloorActivities>(options);
const local = proxyLocalActivities<FloorActivities>(options);
/** As the scope index workflow's: it wakes up for a reconcile this often when no change comes. */
const INDEX_RECONCILE_EVERY_MS = 15 * 60_000;
/** As the scope usage workflow's: an idle one completes after this long. */
const USAGE_IDLE_MS = 60 * 60_000;

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
  if (segment.allRemote) {
    for (const [step, name] of ISSUE_FLOOR_JOB_STEPS.entries()) await remote.noop({ segmentId: segment.segmentId, step, name });
    return segment.segmentId;
  }
  for (const [step, s] of FLOOR_JOB_STEPS.entries()) {
    const indexWorkflowId = 'signalsIndex' in s ? segment.indexWorkflowId : undefined;
    const usageWorkflowId = 'signalsUsage' in s ? segment.usageWorkflowId : undefined;
    await (s.local ? local : remote).noop({
      segmentId: segment.segmentId,
      step,
      name: s.name,
      ...(indexWorkflowId ? { indexWorkflowId } : {}),
      ...(usageWorkflowId ? { usageWorkflowId } : {}),
    });
  }
  return segment.segmentId;
}

/**
 * The scope index entity's shape: every change pending at a wake-up goes into one burst (a
 * local activity), and the run continues as new before its history grows large.
 */
export async function floorIndexWorkflow(pendingFromLastRun = 0): Promise<void> {
  await takeInBursts(floorIndexChangeSignal, INDEX_RECONCILE_EVERY_MS, { segmentId: 'index', name: 'applyIndexChanges' }, pendingFromLastRun);
}

/** The scope usage entity's shape: the same, with its bursts named as the usage workflow's and its idle end. */
export async function floorUsageWorkflow(pendingFromLastRun = 0): Promise<void> {
  await takeInBursts(floorUsageRecordsSignal, USAGE_IDLE_MS, { segmentId: 'usage', name: 'applyScopeRecordsBurst' }, pendingFromLastRun);
}

async function takeInBursts(
  signal: SignalDefinition<{ segmentId: string }[]>,
  idleMs: number,
  burst: { segmentId: string; name: string },
  pendingFromLastRun: number,
): Promise<void> {
  let pending = pendingFromLastRun;
  setHandler(signal, (...items) => void (pending += items.length));
  // As the entities wait: on alarms (workflows/alarm.ts), a timer per idle period, not one per burst.
  const idleWait = deadlineWaiter();
  let idleSince = new Date().getTime();
  while (!indexHistoryFull()) {
    if (pending === 0) await idleWait(() => pending > 0, idleSince + idleMs);
    if (pending === 0) {
      if (new Date().getTime() - idleSince >= idleMs) return;
      continue;
    }
    pending = 0;
    await local.noop({ ...burst, step: -1 });
    idleSince = new Date().getTime();
  }
  await continueAsNew(pending);
}
