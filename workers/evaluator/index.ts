// The example evaluator worker (simulated weather family) and its building blocks.
export { weatherEvaluatorActivities, type EvaluationWindow, type ScoreOverride, type WeatherEvaluatorOptions } from './weather-evaluator';
export { createEvaluatorWorker, type EvaluatorWorker, type EvaluatorWorkerOptions } from './worker';
export { runEvaluatorWorker, parseScoreOverrides, type EvaluatorWorkerFlags } from './main';
