// Zod-free, so workflow code (core/workflow-inputs, core/workflow-api) can import it.
export const EVALUATION_ARMS = ['baseline', 'online', 'optimized'] as const;
export type EvaluationArm = (typeof EVALUATION_ARMS)[number];
export const EVALUATION_PHASES = ['search', 'confirmation', 'replay'] as const;
export type EvaluationPhase = (typeof EVALUATION_PHASES)[number];

/** Run ids: lower-case words, digits and dashes (they name S3 keys, scopes, task queues and workflow ids). */
export const RUN_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const RUN_ID_RULE = 'a run id is 1-63 lower-case letters, digits and dashes, starting with a letter or digit';
