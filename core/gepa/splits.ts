/** The splits of a frozen dataset (zod-free: workflow input checks import it). */
export const DATASET_SPLITS = ['feedback', 'validation', 'holdout'] as const;
export type DatasetSplit = (typeof DATASET_SPLITS)[number];
