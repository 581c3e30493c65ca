import { WorkflowFailedError, type Client } from '@temporalio/client';
import { importedSkill, scopeKey as scopeKeyOf, type EvolutionConfig, type Scope } from '../core';
import { failureMessage } from '../core/failure-message';
import { importSkillWorkflowId } from '../core/workflow-ids';
import { IMPORT_SKILL_WORKFLOW, type ImportSkillResult, type ImportSkillWorkflow } from '../core/workflow-api';
import { InputError, StateError } from '../core/errors';
import { searchAttributes } from '../core/search-attributes';

export type { ImportSkillResult };

/**
 * Publishes a hand-written SKILL.md as an UNMANAGED skill: agents load it and the
 * reviewer sees it (for dedup), but evolution never updates or deletes it. Runs the import
 * workflow (the publisher moves the pointer, the scope's index workflow adds it to the
 * index) and returns once the index has it. Importing the same file again is the same
 * operation (the workflow id is a function of the scope, skill and content).
 */
export async function importUnmanagedSkill(deps: { client: Client; config: EvolutionConfig }, scope: Scope, markdown: string): Promise<ImportSkillResult> {
  let imported;
  try {
    imported = importedSkill(markdown);
  } catch (e) {
    throw new InputError(`not a valid SKILL.md: ${(e as Error).message}`);
  }
  const { spec, skillId, revisionId, digest } = imported;
  const scopeKey = scopeKeyOf(scope);
  try {
    return await deps.client.workflow.execute<ImportSkillWorkflow>(IMPORT_SKILL_WORKFLOW, {
      taskQueue: deps.config.temporal.taskQueue,
      workflowId: importSkillWorkflowId(scopeKey, skillId, digest),
      args: [{ scopeKey, skillId, revisionId, spec }],
      searchAttributes: searchAttributes({ kind: 'import', scopeKey, skillId }),
    });
  } catch (e) {
    // The activity's own message ("skill … is managed by evolution …") rather than the wrapper's.
    if (e instanceof WorkflowFailedError) throw new StateError(failureMessage(e));
    throw e;
  }
}
