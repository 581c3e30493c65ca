import { deprecatePatch, workflowInfo } from '@temporalio/workflow';

/**
 * A retired patch (docs/versioning.md, "Retiring a patch"): runs that recorded its marker
 * replay the same call, while live runs make none, so they record no marker and no
 * `TemporalChangeVersion` search attribute (each of which is an event, and the upsert a
 * visibility write, in every run that reaches the patch).
 */
export function retiredPatch(patchId: string): void {
  if (workflowInfo().unsafe.isReplaying) deprecatePatch(patchId);
}
