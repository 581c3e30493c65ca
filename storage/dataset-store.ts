import type { z } from 'zod';
import { DatasetSchema, type Dataset } from '../core';
import { parseInput } from './input';
import { datasetKey } from './keys';
import type { ObjectStore } from './object-store';
import { putOnce } from './put-once';

/** Frozen GEPA datasets: a (id, version) is written once and never changes. */
export function datasetStore(objects: ObjectStore) {
  /** Storing the same dataset again is fine; different content under the same id and version is a conflict. */
  async function putDataset(input: z.input<typeof DatasetSchema>): Promise<Dataset> {
    const dataset = parseInput(DatasetSchema, input, 'dataset');
    const key = datasetKey(dataset.id, dataset.version);
    return putOnce(objects, key, dataset, {
      schema: DatasetSchema,
      conflict: () => `dataset ${dataset.id} version ${dataset.version} is frozen and differs from the one given; publish a new version`,
    });
  }

  async function getDataset(id: string, version: string): Promise<Dataset | undefined> {
    return (await objects.getJson(datasetKey(id, version), DatasetSchema))?.value;
  }

  return { putDataset, getDataset };
}

export type DatasetStore = ReturnType<typeof datasetStore>;
