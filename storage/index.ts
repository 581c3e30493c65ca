// Object storage on S3: conditional writes for everything that must not be lost or overwritten.
export { createBucket, createS3Client, sharedS3Client, S3CredentialsError, S3ResponseError, type S3Client, type S3Settings } from './s3-client';
export * from './errors';
export * from './keys';
export { compactJson, createObjectStore, indentedJson, parseJson, type ObjectStore, type Stored, type Fetched, type StoredBody } from './object-store';
export { createSkillStore, skillStoreOn, type SkillStore } from './skill-store';
export { MUTABLE_REVISION_FIELDS, type RevisionPatch, type Transition } from './revision-store';
export { tombstonePointer, type ActivePointerInput, type StoredPointer } from './pointer-store';
export { ScopeIndexSchema, ScopeIndexEntrySchema, indexChangeFor, type ScopeIndex, type ScopeIndexEntry, type ScopeIndexRead } from './scope-index-store';
export { StoredCursorSchema, type StoredCursor, type CursorVersion, type FailedReviews, type ReviewStep } from './cursor-store';
export type { StoredJobOutcome } from './job-outcome-store';
export { putOnce, type PutOnceOptions } from './put-once';
export { retryOnConflict } from './cas-retry';
export { mapLimit } from '../core/concurrency';
export { UsageSummarySchema, offeredSkills } from './usage-store';
export { readCurationInputs, type CurationReads } from './curation-reads';
