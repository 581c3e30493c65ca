import type { ExperimentProgress, ExperimentReport, ExperimentWorkflowInput } from '../gepa/experiment-types';
import { query } from './define';

export type { ExperimentProgress, ExperimentReport, ExperimentWorkflowInput };

/** One GEPA optimization run (workflows/experiment.ts). */
export const EXPERIMENT_WORKFLOW = 'experimentWorkflow';
export type ExperimentWorkflow = (input: ExperimentWorkflowInput) => Promise<ExperimentReport>;

/** The experiment's progress, answered from memory (no history read). */
export const experimentProgressQuery = query<ExperimentProgress>('progress');
