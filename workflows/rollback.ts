import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

export interface RollbackInput {
  scopeKey: string;
  skillId: string;
  /** A chosen archived revision; default: the most recently archived one. */
  targetRevisionId?: string;
  reviewer: string;
  comment?: string;
}

export interface RollbackResult {
  skillId: string;
  restoredRevisionId: string;
  archivedRevisionId?: string;
}

const { rollbackSkill } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: ['NonRetryableStoreError', 'RollbackError'] },
});

/** Durable rollback: current → archived, target → active, republished; audited as `rollback`. */
export async function rollbackWorkflow(input: RollbackInput): Promise<RollbackResult> {
  return rollbackSkill({ ...input, at: new Date().toISOString() });
}
