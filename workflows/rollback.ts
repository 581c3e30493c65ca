import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RollbackRequest } from '../core';
import { checkRollbackInput } from '../core/workflow-inputs';
import { requireValidInput } from './input-guard';
import { storageRetry } from './retry-policies';

/** A chosen archived revision (`targetRevisionId`), or by default the latest archived one. */
export type RollbackInput = RollbackRequest;

export interface RollbackResult {
  skillId: string;
  restoredRevisionId: string;
  archivedRevisionId?: string;
}

const { rollbackSkill } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: storageRetry });

/** Durable rollback: current → archived, target → active, republished; audited as `rollback`. */
export async function rollbackWorkflow(input: RollbackInput): Promise<RollbackResult> {
  requireValidInput('rollback', checkRollbackInput(input));
  return rollbackSkill({ ...input, at: new Date().toISOString() });
}
