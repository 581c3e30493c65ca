import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RollbackInput, RollbackResult } from '../core/workflow-api/rollback';
import { checkRollbackInput } from '../core/workflow-inputs';
import { requireValidInput } from './input-guard';
import { storageRetry } from './retry-policies';
import { operationId } from '../core/publication/operations';
import { indexAcks } from './scope-index';

export type { RollbackInput, RollbackResult };

const { rollbackSkill } = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', heartbeatTimeout: '15 seconds', retry: storageRetry });

/** Durable rollback: current → archived, target → active, republished; audited as `rollback`. */
export async function rollbackWorkflow(input: RollbackInput): Promise<RollbackResult> {
  requireValidInput('rollback', checkRollbackInput(input));
  const indexed = indexAcks();
  const { indexSeq, ...result } = await rollbackSkill({ ...input, at: new Date().toISOString(), opId: operationId(workflowInfo().workflowId, 'rollback') });
  await indexed.until(input.skillId, indexSeq, '30 seconds');
  return result;
}
