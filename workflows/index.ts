// Every workflow the worker registers. Deterministic orchestration only: all I/O is in activities.
export { sessionWorkflow, submitSegmentSignal, sessionStateQuery } from './session';
export { learningJobWorkflow } from './learning-job';
export { approvalWorkflow, decideSignal, decideUpdate, approvalStatusQuery } from './approval';
export { rollbackWorkflow } from './rollback';
