import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RollbackInput, RollbackResult } from '../core/workflow-api/rollback';
import { checkRollbackInput } from '../core/workflow-inputs';
import { requireValidInput } from './input-guard';
import { decidedWorkOptions } from './retry-policies';
import { operationId } from '../core/publication/operations';
import { indexAcks } from './scope-index';

export type { RollbackInput, RollbackResult };

// A rollback someone asked for is never lost to an outage: it waits the outage out (a day).
const { rollbackSkill } = proxyActivities<Activities>(decidedWorkOptions(undefined, { heartbeat: true }));

/** Durable rollback: current → archived, target → active, republished; audited as `rollback`. */
export async function rollbackWorkflow(input: RollbackInput): Promise<RollbackResult> {
  requireValidInput('rollback', checkRollbackInput(input));
  const indexed = indexAcks();
  const { indexSeq, ...result } = await rollbackSkill({ ...input, at: new Date().toISOString(), opId: operationId(workflowInfo().workflowId, 'rollback') });
  await indexed.until(input.skillId, indexSeq, '30 seconds');
  return result;
}
