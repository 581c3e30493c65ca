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
  remainingMetricCalls,
  spendMetricCalls,
  searchStopReason as budgetStopReason,
  type BudgetShape,
  type MetricBudget,
} from './budget';
export * from './evaluations';
export * from './acceptance';
export * from './selection';
export * from './promotion';
export * from './state';
export * from './result';
export * from './reflection-prompt';
export * from './simulated-weather';
export * from './redact-dataset';
export * from './submission-parent';
