import type { Case, Dataset, DatasetRef } from '../../core';
import type { SkillStore } from '../../storage';
import { ApplicationFailure } from '@temporalio/activity';
import { NON_RETRYABLE } from '../../core/failure-types';

const MAX_ENTRIES = 16;

/**
 * Datasets are frozen (create-only per id and version), so a worker may keep the ones it
 * reads: evaluation batches and reflections load cases without re-reading S3 each time.
 */
export function datasetCache(store: SkillStore) {
  const entries = new Map<string, Promise<Dataset | undefined>>();

  async function get(ref: DatasetRef): Promise<Dataset> {
    const key = `${ref.id}\u0000${ref.version}`;
    let entry = entries.get(key);
    if (!entry) {
      entry = store.getDataset(ref.id, ref.version);
      entries.set(key, entry);
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entry.then(
        (d) => d === undefined && entries.delete(key),
        () => entries.delete(key),
      );
    }
    const dataset = await entry;
    if (!dataset) throw ApplicationFailure.nonRetryable(`dataset ${ref.id} version ${ref.version} does not exist`, NON_RETRYABLE.dataset);
    return dataset;
  }

  /** The cases with these ids, in the order given. */
  async function cases(ref: DatasetRef, caseIds: readonly string[]): Promise<Case[]> {
    const dataset = await get(ref);
    const byId = new Map([...dataset.feedback, ...dataset.validation, ...dataset.holdout].map((c) => [c.id, c]));
    const missing = caseIds.filter((id) => !byId.has(id));
    if (missing.length > 0) {
      throw ApplicationFailure.nonRetryable(`dataset ${ref.id} version ${ref.version} has no case ${missing.map((m) => `"${m}"`).join(', ')}`, NON_RETRYABLE.dataset);
    }
    return caseIds.map((id) => byId.get(id) as Case);
  }

  /** A dataset this worker just froze (prepareExperiment): the experiment's first batch then reads it from memory. */
  function remember(dataset: Dataset): void {
    const key = `${dataset.id}\u0000${dataset.version}`;
    if (entries.has(key)) return;
    entries.set(key, Promise.resolve(dataset));
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  }

  return { get, cases, remember };
}

export type DatasetCache = ReturnType<typeof datasetCache>;
