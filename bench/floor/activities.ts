import type { Client } from '@temporalio/client';
import { coalescePerKey, MAX_ITEMS_PER_SIGNAL } from '../../activities/coalesce-per-key';

export interface FloorStep {
  segmentId: string;
  step: number;
  /** The job's activity this step stands for. */
  name: string;
  /** The publication step: signal-with-start this index entity, as a job's publication signals its scope's index workflow. */
  indexWorkflowId?: string;
  /** The publication step: signal-with-start this usage entity, as a job's last write signals its scope's usage workflow. */
  usageWorkflowId?: string;
}

/** The floor's activity: does nothing but what the orchestration needs (the floor measures orchestration only). */
export function floorActivities(client: Client, taskQueue: string) {
  // As the worker's publications do (clientIndexSignaller): one signal in flight per index entity, the rest together in the next.
  const signalIndex = coalescePerKey<{ segmentId: string }>(
    (workflowId, changes) => client.workflow.signalWithStart('floorIndexWorkflow', { workflowId, taskQueue, args: [], signal: 'indexChange', signalArgs: changes }),
    MAX_ITEMS_PER_SIGNAL,
  );
  // As the worker's activities send what they recorded (clientScopeRecorder): the same coalescing, per usage entity.
  const signalUsage = coalescePerKey<{ segmentId: string }>(
    (workflowId, records) => client.workflow.signalWithStart('floorUsageWorkflow', { workflowId, taskQueue, args: [], signal: 'usageRecords', signalArgs: records }),
    MAX_ITEMS_PER_SIGNAL,
  );
  return {
    async noop({ segmentId, indexWorkflowId, usageWorkflowId }: FloorStep): Promise<void> {
      await Promise.all([indexWorkflowId && signalIndex(indexWorkflowId, { segmentId }), usageWorkflowId && signalUsage(usageWorkflowId, { segmentId })]);
    },
  };
}
export type FloorActivities = ReturnType<typeof floorActivities>;
