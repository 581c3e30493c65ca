import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ImportSkillInput, ImportSkillResult } from '../core/workflow-api/import-skill';
import { checkImportSkillInput } from '../core/workflow-inputs';
import { requireValidInput } from './input-guard';
import { storageRetry } from './retry-policies';
import { indexAcks } from './index-acks';

export type { ImportSkillInput, ImportSkillResult };

const { importSkill } = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', heartbeatTimeout: '15 seconds', retry: storageRetry });

/**
 * A hand-written skill published as unmanaged, through the publisher like every other
 * pointer move; the scope's index workflow, its only writer, adds it to the index before
 * this returns (read-your-writes for the caller). The workflow id is the operation id
 * (core importSkillWorkflowId): the same file imported again is the same operation.
 */
export async function importSkillWorkflow(input: ImportSkillInput): Promise<ImportSkillResult> {
  requireValidInput('import-skill', checkImportSkillInput(input));
  const indexed = indexAcks();
  const { indexSeq, ...result } = await importSkill({ ...input, at: new Date().toISOString(), opId: workflowInfo().workflowId });
  await indexed.until(input.skillId, indexSeq, '30 seconds');
  return result;
}
