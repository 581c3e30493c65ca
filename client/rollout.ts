import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { redactSecrets } from '../core';
import { StateError } from '../core/errors';
import { abortRolloutUpdate, promoteRolloutUpdate, rolloutStatusQuery, type ApproverAction, type RolloutStatus, type RolloutWorkflow } from '../core/workflow-api';
import { rolloutWorkflowId } from '../core/workflow-ids';

export type { ApproverAction, RolloutStatus };

function handleOf(client: Client, candidateRevisionId: string) {
  return client.workflow.getHandle<RolloutWorkflow>(rolloutWorkflowId(candidateRevisionId));
}

/**
 * Where a canary's rollout is (fraction, the last look at its cohorts, its deadline), or its
 * outcome once ended; a StateError when the revision never went through a canary.
 */
export async function rolloutStatus(client: Client, candidateRevisionId: string): Promise<RolloutStatus> {
  const handle = handleOf(client, candidateRevisionId);
  try {
    return await handle.query(rolloutStatusQuery);
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) throw new StateError(`revision ${candidateRevisionId} has no rollout (it was not published as a canary)`);
    throw e;
  }
}

async function act(client: Client, candidateRevisionId: string, update: typeof promoteRolloutUpdate, action: ApproverAction): Promise<RolloutStatus> {
  const handle = handleOf(client, candidateRevisionId);
  try {
    // The comment goes into workflow history and the audit trail: credentials never do.
    return await handle.executeUpdate(update, { args: [{ ...action, ...(action.comment !== undefined ? { comment: redactSecrets(action.comment) } : {}) }] });
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) throw new StateError(`revision ${candidateRevisionId} has no rollout running (it was not published as a canary, or its rollout ended)`);
    const cause = (e as { cause?: Error }).cause;
    throw new StateError(cause?.message ?? (e as Error).message, { cause: e });
  }
}

/** An approver ends a canary's rollout by promoting the candidate to every session; answers once the pointer moved. */
export function promoteRollout(client: Client, candidateRevisionId: string, action: ApproverAction): Promise<RolloutStatus> {
  return act(client, candidateRevisionId, promoteRolloutUpdate, action);
}

/** An approver ends a canary's rollout by rolling it back (the stable revision stays); answers once the pointer moved. */
export function abortRollout(client: Client, candidateRevisionId: string, action: ApproverAction): Promise<RolloutStatus> {
  return act(client, candidateRevisionId, abortRolloutUpdate, action);
}
