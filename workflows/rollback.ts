import { patched, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RollbackInput, RollbackResult } from '../core/workflow-api/rollback';
import { checkRollbackInput } from '../core/workflow-inputs';
import { requireValidInput } from './input-guard';
import { decidedWorkOptions, storageRetry } from './retry-policies';
import { operationId } from '../core/publication/operations';
import { indexAcks } from './index-acks';

export type { RollbackInput, RollbackResult };

/**
 * From this patch on, a rollback reads the worker's EVOLUTION_STORAGE_OUTAGE_TOLERANCE (a local
 * activity, recorded in history) and waits out outages that long; rollbacks that passed this
 * point on older code keep the fixed day.
 */
const ROLLBACK_USES_OUTAGE_TOLERANCE = 'rollback-uses-outage-tolerance';

const settings = proxyLocalActivities<Activities>({ startToCloseTimeout: '10 seconds', retry: storageRetry });

/** Durable rollback: current → archived, target → active, republished; audited as `rollback`. */
export async function rollbackWorkflow(input: RollbackInput): Promise<RollbackResult> {
  requireValidInput('rollback', checkRollbackInput(input));
  // A rollback someone asked for is never lost to an outage: it waits the outage out.
  const toleranceMs = patched(ROLLBACK_USES_OUTAGE_TOLERANCE) ? (await settings.loadGovernance()).storageOutageToleranceMs : undefined;
  const { rollbackSkill } = proxyActivities<Activities>(decidedWorkOptions(toleranceMs, { heartbeat: true }));
  const indexed = indexAcks();
  const { indexSeq, ...result } = await rollbackSkill({ ...input, at: new Date().toISOString(), opId: operationId(workflowInfo().workflowId, 'rollback') });
  await indexed.until(input.skillId, indexSeq, '30 seconds');
  return result;
}
