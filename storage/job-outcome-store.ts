import { z } from 'zod';
import { learningJobTagOf } from '../core';
import { JobOutcomeSchema, outcomeLocates, type JobOutcome } from '../core/governance';
import { jobOutcomeKey, jobOutcomeKeyOfTag, legacyJobOutcomeKey } from './keys';
import type { ObjectStore } from './object-store';

/** What a learning job stored: its outcome and the workflow time it finished. */
const StoredJobOutcomeSchema = JobOutcomeSchema.extend({ recordedAt: z.string() });
export type StoredJobOutcome = z.infer<typeof StoredJobOutcomeSchema>;

/** Where a revision is, as its job's outcome names it. */
export interface RevisionLocation {
  scopeKey: string;
  skillId: string;
}

export function jobOutcomeStore(objects: ObjectStore) {
  /** Idempotent: same job id, same object. */
  async function writeJobOutcome(outcome: JobOutcome, at: string): Promise<void> {
    await objects.put(jobOutcomeKey(outcome.scopeKey, outcome.jobId), { ...outcome, recordedAt: at });
  }

  /** Stored at its job tag; an outcome stored before that, beside its scope, is read there. */
  async function readJobOutcome(scopeKey: string, jobId: string): Promise<StoredJobOutcome | undefined> {
    const stored = (await objects.getJson(jobOutcomeKey(scopeKey, jobId), StoredJobOutcomeSchema))?.value;
    if (stored) return stored;
    return (await objects.getJson(legacyJobOutcomeKey(scopeKey, jobId), StoredJobOutcomeSchema))?.value;
  }

  /**
   * A revision made by a learning job (its id carries the job's tag) whose job recorded its
   * outcome: where that outcome says it is. Undefined for any other revision (its locator finds it).
   */
  async function locateThroughJobOutcome(revisionId: string): Promise<RevisionLocation | undefined> {
    const tag = learningJobTagOf(revisionId);
    if (!tag) return undefined;
    const outcome = (await objects.getJson(jobOutcomeKeyOfTag(tag), StoredJobOutcomeSchema))?.value;
    if (!outcome || !outcomeLocates(outcome, revisionId)) return undefined;
    const listed = outcome.revisions.find((r) => r.revisionId === revisionId);
    return listed && { scopeKey: outcome.scopeKey, skillId: listed.skillId };
  }

  return { writeJobOutcome, readJobOutcome, locateThroughJobOutcome };
}
