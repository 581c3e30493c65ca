// What a caller needs to start and talk to each workflow the product runs — its type name,
// input, result and messages — without the workflow code or @temporalio/workflow: the
// client library imports this; each workflow registers its handlers on the same definitions
// (test/unit/workflow-api.test.ts checks names and signatures against the workflows).
export * from './session';
export * from './approval';
export * from './rollback';
export * from './experiment';
export * from './import-skill';
export * from './curator';
export * from './rollout';
