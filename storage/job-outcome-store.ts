import { z } from 'zod';
import { JobOutcomeSchema, type JobOutcome } from '../core/governance';
import { jobOutcomeKey } from './keys';
import type { ObjectStore } from './object-store';

/** What a learning job stored beside its scope: its outcome and the workflow time it finished. */
const StoredJobOutcomeSchema = JobOutcomeSchema.extend({ recordedAt: z.string() });
export type StoredJobOutcome = z.infer<typeof StoredJobOutcomeSchema>;

export function jobOutcomeStore(objects: ObjectStore) {
  /** Idempotent: same job id, same object. */
  async function writeJobOutcome(outcome: JobOutcome, at: string): Promise<void> {
    await objects.put(jobOutcomeKey(outcome.scopeKey, outcome.jobId), { ...outcome, recordedAt: at });
  }

  async function readJobOutcome(scopeKey: string, jobId: string): Promise<StoredJobOutcome | undefined> {
    return (await objects.getJson(jobOutcomeKey(scopeKey, jobId), StoredJobOutcomeSchema))?.value;
  }

  return { writeJobOutcome, readJobOutcome };
}
