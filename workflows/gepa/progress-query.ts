import { defineQuery } from '@temporalio/workflow';
import type { ExperimentProgress } from './types';

/** The experiment's progress, answered from memory (no history read). */
export const experimentProgressQuery = defineQuery<ExperimentProgress>('progress');
