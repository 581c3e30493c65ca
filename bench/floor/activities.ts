import type { Client } from '@temporalio/client';

export interface FloorStep {
  segmentId: string;
  step: number;
  /** The publication step: signal-with-start this index entity, as a job's publication signals its scope's index workflow. */
  indexWorkflowId?: string;
}

/** The floor's activity: does nothing but what the orchestration needs (the floor measures orchestration only). */
export function floorActivities(client: Client, taskQueue: string) {
  return {
    async noop({ segmentId, indexWorkflowId }: FloorStep): Promise<void> {
      if (!indexWorkflowId) return;
      await client.workflow.signalWithStart('floorIndexWorkflow', {
        workflowId: indexWorkflowId,
        taskQueue,
        args: [],
        signal: 'indexChange',
        signalArgs: [{ segmentId }],
      });
    },
  };
}
export type FloorActivities = ReturnType<typeof floorActivities>;
