import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RollbackRequest } from '../core';
import type { RollbackResult } from '../core/governance/types';
import { checkRollbackInput } from '../core/workflow-inputs';
import { requireValidInput } from './input-guard';
import { storageRetry } from './retry-policies';
import { operationId } from '../core/publication/operations';
import { indexAcks } from './scope-index';

/** A chosen archived revision (`targetRevisionId`), or by default the latest archived one. */
export type RollbackInput = RollbackRequest;

export type { RollbackResult };

const { rollbackSkill } = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', heartbeatTimeout: '15 seconds', retry: storageRetry });

/** Durable rollback: current → archived, target → active, republished; audited as `rollback`. */
export async function rollbackWorkflow(input: RollbackInput): Promise<RollbackResult> {
  requireValidInput('rollback', checkRollbackInput(input));
  const indexed = indexAcks();
  const { indexSeq, ...result } = await rollbackSkill({ ...input, at: new Date().toISOString(), opId: operationId(workflowInfo().workflowId, 'rollback') });
  await indexed.until(input.skillId, indexSeq, '30 seconds');
  return result;
}
