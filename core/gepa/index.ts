// GEPA offline optimization: the pure, deterministic parts (safe in workflow code).
export * from './prng';
export * from './pareto';
export * from './minibatch';
export * from './selection';
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
export * from './components';
export * from './evaluations';
export * from './reflection-prompt';
export * from './acceptance';
export * from './promotion';
