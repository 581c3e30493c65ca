// The same change WITHOUT patched(): what the versioning policy forbids. Replaying an
// approval recorded before the change must fail (the test proves the guard is needed).
import { sleep } from '@temporalio/workflow';
import { approvalWorkflow as currentApprovalWorkflow, type ApprovalInput, type ApprovalResult } from '../../../../workflows/approval';

export * from '../../../../workflows';

export async function approvalWorkflow(input: ApprovalInput): Promise<ApprovalResult> {
  await sleep('1 millisecond');
  return currentApprovalWorkflow(input);
}
