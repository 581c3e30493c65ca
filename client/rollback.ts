import { WorkflowFailedError, type Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { redactSecrets, type EvolutionConfig } from '../core';
import { failureMessage } from '../core/failure-message';
import { rollbackWorkflowId } from '../core/workflow-ids';
import type { RollbackResult } from '../core/governance';
import { ROLLBACK_WORKFLOW, type RollbackWorkflow } from '../core/workflow-api';
import { InputError, StateError } from '../core/errors';
import { searchAttributes } from '../core/search-attributes';

/** Rolls a skill back (to the latest archived revision, or a chosen one) through a durable workflow. */
export async function rollbackSkill(
  deps: { client: Client; config: EvolutionConfig },
  input: { scopeKey: string; skillId: string; targetRevisionId?: string; reviewer: string; comment?: string },
): Promise<RollbackResult> {
  if (!input.reviewer?.trim()) throw new InputError('a reviewer name is required for a rollback');
  try {
    return await deps.client.workflow.execute<RollbackWorkflow>(ROLLBACK_WORKFLOW, {
      taskQueue: deps.config.temporal.taskQueue,
      workflowId: rollbackWorkflowId(input.scopeKey, input.skillId, randomUUID()),
      // The comment goes into workflow history and the audit trail: credentials never do.
      args: [{ ...input, ...(input.comment !== undefined ? { comment: redactSecrets(input.comment) } : {}) }],
      searchAttributes: searchAttributes({ kind: 'rollback', scopeKey: input.scopeKey, skillId: input.skillId }),
    });
  } catch (e) {
    // Surface the activity's own message ("no archived revision …") rather than the wrapper's.
    if (e instanceof WorkflowFailedError) throw new StateError(failureMessage(e));
    throw e;
  }
}
