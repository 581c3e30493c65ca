// Plain (zod-free) checks of every workflow's input, run first thing by each workflow.
export { describeValue } from './fields';
export { checkSegment } from './segment';
export { checkSessionInput } from './session';
export { checkLearningJobInput } from './learning-job';
export { checkApprovalInput, checkRevisionRef } from './approval';
export { checkRollbackInput } from './rollback';
export { checkExperimentInput } from './experiment';
export { checkEvaluationBatchInput } from './evaluation-batch';
export { checkImportSkillInput } from './import-skill';
export { checkCuratorInput } from './curator';
export { checkEvaluationRunInput } from './evaluation-run';
export { checkRolloutInput } from './rollout';
