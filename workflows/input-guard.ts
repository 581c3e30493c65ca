import { ApplicationFailure } from '@temporalio/workflow';
import { INVALID_WORKFLOW_INPUT } from '../core/failure-types';

/**
 * First line of every workflow: an input that `check` finds problems with fails the
 * workflow at once, without retry, naming each bad field — instead of a workflow task
 * (or an activity) failing on a TypeError forever.
 */
export function requireValidInput(workflow: string, problems: readonly string[]): void {
  if (problems.length === 0) return;
  throw ApplicationFailure.create({ type: INVALID_WORKFLOW_INPUT, nonRetryable: true, message: `invalid ${workflow} workflow input: ${problems.join('; ')}` });
}
