// Governance composition: from reviewer decisions (or GEPA winners) to gated revisions.
export * from './types';
export * from './build-revision';
export * from './plan';
export * from './approval-expiry';
export { segmentIdFor } from './ids';

export * from './job-outcome';
export * from './job-outcome-schema';
export * from './published';
export { decidedForPublication, jobPublication, publicationReason, publishableOf, type PublishableRevision, type RecordedRevision } from './decided-for-publication';
export * from './quarantine';
export * from './session-audit';
export * from './rejections';
export * from './counters';
