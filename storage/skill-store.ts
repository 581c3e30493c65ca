import { auditStore } from './audit-store';
import { cursorStore } from './cursor-store';
import { datasetStore } from './dataset-store';
import { jobOutcomeStore } from './job-outcome-store';
import { createObjectStore, type ObjectStore } from './object-store';
import { payloadStore } from './payload-store';
import { pointerStore } from './pointer-store';
import { revisionStore } from './revision-store';
import { sharedS3Client, type S3Client, type S3Settings } from './s3-client';
import { scopeIndexStore } from './scope-index-store';
import { usageStore } from './usage-store';
import { rejectionStore } from './rejection-store';
import { pinStore } from './pin-store';

/** Every domain operation on the bucket; each one is idempotent under Temporal retries. */
export function skillStoreOn(objects: ObjectStore) {
  const pointers = pointerStore(objects);
  const jobOutcomes = jobOutcomeStore(objects);
  const revisions = revisionStore(objects, async (scopeKey, skillId) => (await pointers.readActive(scopeKey, skillId))?.pointer, jobOutcomes.locateThroughJobOutcome);
  const rejections = rejectionStore(objects);
  const index = scopeIndexStore(objects, pointers, revisions.listSkillIds, rejections.rejectionsVersion);
  return {
    objects,
    ...revisions,
    ...pointers,
    ...auditStore(objects),
    ...index,
    ...usageStore(objects, index),
    ...rejections,
    ...pinStore(objects),
    ...cursorStore(objects),
    ...payloadStore(objects),
    ...datasetStore(objects),
    ...jobOutcomes,
  };
}

export type SkillStore = ReturnType<typeof skillStoreOn>;

/** On the process's one S3 client for these settings, unless given another. */
export function createSkillStore(s3: S3Settings, client: S3Client = sharedS3Client(s3)): SkillStore {
  return skillStoreOn(createObjectStore(client, s3.bucket));
}
