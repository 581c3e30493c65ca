// GEPA offline optimization: the pure, deterministic parts (safe in workflow code).
export * from './prng';
export * from './pareto';
export * from './minibatch';
export * from './components';
export {
  MetricBudgetError,
  canStartIteration,
  holdoutCalls,
  holdoutReserve,
  minibatchSize,
  planBudget,
  reservedCalls,
  spendMetricCalls,
  searchStopReason as budgetStopReason,
  type BudgetShape,
  type MetricBudget,
  type SpendPhase,
} from './budget';
export * from './preflight';
export * from './frontier';
export * from './merge';
export * from './merge-state';
export * from './spend';
export * from './cache-keys';
export * from './evaluations';
export * from './acceptance';
export * from './selection';
export * from './promotion';
export * from './state';
export * from './result';
export * from './reflection-prompt';
export * from './redact-dataset';
export * from './submission-parent';
export * from './batch-result';
