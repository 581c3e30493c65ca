import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { rolloutWorkflowId } from '../core';
import { ROLLOUT_WORKFLOW, type RolloutInput } from '../core/workflow-api/rollout';

/** Starts a candidate revision's rollout workflow; a second start of the same rollout is a no-op. */
export type StartRollout = (input: RolloutInput) => Promise<void>;

const START_DEADLINE_MS = 30_000;

/**
 * Through the worker's client, on its task queue. The workflow id is a function of the
 * candidate revision and a closed rollout is never started again (REJECT_DUPLICATE), so a
 * retried publication starts it at most once.
 */
export function clientRolloutStarter(client: Client, taskQueue: string): StartRollout {
  return async (input) => {
    try {
      await client.withDeadline(Date.now() + START_DEADLINE_MS, () =>
        client.workflow.start(ROLLOUT_WORKFLOW, {
          workflowId: rolloutWorkflowId(input.candidateRevisionId),
          taskQueue,
          args: [input],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        }),
      );
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  };
}
