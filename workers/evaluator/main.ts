import { Runtime } from '@temporalio/worker';
import { appendFileSync } from 'node:fs';
import type { EvolutionConfig } from '../../core';
import { loadConfig } from '../../runtime/config';
import type { ScoreOverride } from './weather-evaluator';
import { startWorkerOperations } from '../telemetry/operations';
import { startTracingFromEnv } from '../../runtime/tracing/from-env';
import { createEvaluatorWorker } from './worker';

export interface EvaluatorWorkerFlags {
  taskQueue?: string;
  identity?: string;
  delayMs?: number;
  caseDelayMs?: number;
  maxConcurrent?: number;
  /** Appends one JSON line per evaluate call: identity, start, end (parallelism evidence). */
  windowsFile?: string;
  scoreOverrides?: ScoreOverride[];
  /** What describeEvaluator reports (cache keys, re-certification). */
  evaluatorVersion?: string;
  modelVersion?: string;
}

/** Parses `CASE=SCORE[@REGEX]` (comma-separated list). */
export function parseScoreOverrides(text: string): ScoreOverride[] {
  return text
    .split(',')
    .filter((s) => s.trim() !== '')
    .map((item) => {
      const m = /^([^=]+)=([^@]+)(?:@(.*))?$/.exec(item.trim());
      if (!m || !Number.isFinite(Number(m[2]))) throw new Error(`--override expects CASE=SCORE[@REGEX], got "${item}"`);
      return { caseId: m[1], score: Number(m[2]), ...(m[3] ? { whenSpecMatches: m[3] } : {}) };
    });
}

/** `evolution evaluator-worker`: the example evaluator until SIGINT/SIGTERM. */
export async function runEvaluatorWorker(flags: EvaluatorWorkerFlags = {}, config: EvolutionConfig = loadConfig()): Promise<void> {
  const ops = await startWorkerOperations(config);
  const tracing = await startTracingFromEnv(process.env, 'evolution-evaluator');
  const windowsFile = flags.windowsFile;
  const { worker, connection, taskQueue, identity } = await createEvaluatorWorker({
    config,
    taskQueue: flags.taskQueue,
    identity: flags.identity,
    maxConcurrent: flags.maxConcurrent,
    tracing,
    evaluator: {
      delayMs: flags.delayMs,
      caseDelayMs: flags.caseDelayMs,
      scoreOverrides: flags.scoreOverrides,
      evaluatorVersion: flags.evaluatorVersion,
      modelVersion: flags.modelVersion,
      onWindow: windowsFile ? (w) => appendFileSync(windowsFile, `${JSON.stringify(w)}\n`) : undefined,
    },
  });
  ops.attach(worker);
  const metrics = ops.metricsPort !== undefined ? `; metrics and health on :${ops.metricsPort}` : '';
  // Through the Runtime's logger: one format (JSON lines when JSON logs are on) from start to drain.
  Runtime.instance().logger.info(`[evaluator] ${identity} polling task queue "${taskQueue}" on ${config.temporal.address}${metrics}`);
  try {
    await worker.run(); // returns once SIGTERM/SIGINT (see startWorkerOperations) has drained it
  } finally {
    await connection.close();
    await ops.close();
    await tracing?.shutdown();
  }
}
