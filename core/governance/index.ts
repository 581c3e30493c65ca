// Governance composition: from reviewer decisions (or GEPA winners) to gated revisions.
import { learningJobWorkflowId as jobIdFor } from '../learning';
import type { Segment } from '../schemas';

export * from './types';
export * from './build-revision';
export * from './plan';
export { approvalWorkflowId, sessionWorkflowId } from '../learning';

/** The learning job's workflow id: a function of the segment, so duplicates are deduplicated. */
export function learningJobWorkflowId(segment: Pick<Segment, 'sessionId' | 'segmentId'> & { scopeKey: string }): string {
  return jobIdFor(segment.scopeKey, segment.sessionId, segment.segmentId);
}
