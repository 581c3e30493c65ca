import { defineQuery } from '@temporalio/workflow';
import type { ExperimentProgress } from '../../core/gepa/experiment-types';

/** The experiment's progress, answered from memory (no history read). */
export const experimentProgressQuery = defineQuery<ExperimentProgress>('progress');
