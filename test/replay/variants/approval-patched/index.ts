// The workflows as a deploy would change them: the approval workflow gains a step (here a
// short timer standing in for, say, a reminder), guarded by patched() so approvals that
// were already waiting when this code shipped replay exactly as they ran. See docs/versioning.md.
import { patched, sleep } from '@temporalio/workflow';
import { approvalWorkflow as currentApprovalWorkflow, type ApprovalInput, type ApprovalResult } from '../../../../workflows/approval';

export * from '../../../../workflows';

export async function approvalWorkflow(input: ApprovalInput): Promise<ApprovalResult> {
  if (patched('approval-reminder')) await sleep('1 millisecond');
  return currentApprovalWorkflow(input);
}
