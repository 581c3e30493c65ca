import { ApplicationFailure, Context } from '@temporalio/activity';
import { EvaluateActivityInputSchema, type EvaluateActivityInput, type Evaluation, type EvaluatorDescription } from '../../core';
import { scoreWeatherCase } from './simulated-weather';
import { INVALID_EVALUATOR_INPUT, type EvaluatorActivities } from '../../activities/gepa/evaluator-contract';

/** A deliberate deviation, for tests and demos: this case gets `score` (when the spec's text matches). */
export interface ScoreOverride {
  caseId: string;
  /** Any number, out-of-range ones included (to show the contract check). */
  score: number;
  /** Regular expression over the spec's steps + pitfalls; absent: always. */
  whenSpecMatches?: string;
}

/** When one evaluate call ran, on which worker: what makes parallelism observable. */
export interface EvaluationWindow {
  identity: string;
  workflowId: string;
  activityId: string;
  attempt: number;
  candidateId: string;
  cases: number;
  startedAt: number;
  endedAt: number;
  outcome: 'completed' | 'cancelled' | 'failed';
}

export interface WeatherEvaluatorOptions {
  /** Reported in windows (the worker identity). */
  identity?: string;
  /** Injected latency per evaluate call (ms). */
  delayMs?: number;
  /** Injected latency per case (ms). */
  caseDelayMs?: number;
  scoreOverrides?: readonly ScoreOverride[];
  onWindow?: (window: EvaluationWindow) => void;
  /** What describeEvaluator answers (defaults: WEATHER_EVALUATOR_VERSION, WEATHER_MODEL_VERSION); `describe: false` leaves it out. */
  evaluatorVersion?: string;
  modelVersion?: string;
  describe?: boolean;
  /** Counts evaluateCandidate calls and cases (what an evaluation cache saves). */
  onEvaluate?: (call: { candidateId: string; cases: number }) => void;
}

/** The example evaluator's versions: bump the evaluator's when its scoring changes. */
export const WEATHER_EVALUATOR_VERSION = 'weather-evaluator@2';
export const WEATHER_MODEL_VERSION = 'simulated-weather-1';

const HEARTBEAT_SLICE_MS = 200;

/** Sleeps in slices, heartbeating between them, so a cancellation arrives within a slice. */
async function pause(ctx: Context, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= HEARTBEAT_SLICE_MS) {
    ctx.heartbeat();
    await ctx.sleep(Math.min(HEARTBEAT_SLICE_MS, left));
  }
}

function override(spec: EvaluateActivityInput['spec'], evaluation: Evaluation, overrides: readonly ScoreOverride[]): Evaluation {
  const method = [...spec.steps, ...spec.pitfalls].join('\n');
  const hit = overrides.find((o) => o.caseId === evaluation.caseId && (o.whenSpecMatches === undefined || new RegExp(o.whenSpecMatches, 'i').test(method)));
  return hit ? { ...evaluation, score: hit.score, feedback: `${evaluation.feedback ?? ''}\n(score overridden to ${hit.score})` } : evaluation;
}

/**
 * The example evaluator: the deterministic simulated weather family (core/gepa/
 * simulated-weather) behind the evaluator contract, with injectable latency. It
 * heartbeats while it works and stops when the experiment cancels it.
 */
export function weatherEvaluatorActivities(options: WeatherEvaluatorOptions = {}): Partial<EvaluatorActivities> & Pick<EvaluatorActivities, 'evaluateCandidate'> {
  const description: EvaluatorDescription = {
    evaluatorVersion: options.evaluatorVersion ?? WEATHER_EVALUATOR_VERSION,
    modelVersion: options.modelVersion ?? WEATHER_MODEL_VERSION,
  };
  return {
    ...(options.describe === false ? {} : { describeEvaluator: async () => description }),
    async evaluateCandidate(raw: EvaluateActivityInput) {
      const parsed = EvaluateActivityInputSchema.safeParse(raw);
      if (!parsed.success) {
        throw ApplicationFailure.nonRetryable(
          `invalid evaluate input: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
          INVALID_EVALUATOR_INPUT,
        );
      }
      const input = parsed.data;
      options.onEvaluate?.({ candidateId: input.candidateId, cases: input.cases.length });
      const ctx = Context.current();
      const startedAt = Date.now();
      const window = (outcome: EvaluationWindow['outcome']) =>
        options.onWindow?.({
          identity: options.identity ?? 'weather-evaluator',
          workflowId: ctx.info.workflowExecution?.workflowId ?? '',
          activityId: ctx.info.activityId,
          attempt: ctx.info.attempt,
          candidateId: input.candidateId,
          cases: input.cases.length,
          startedAt,
          endedAt: Date.now(),
          outcome,
        });
      try {
        if (options.delayMs) await pause(ctx, options.delayMs);
        const evaluations: Evaluation[] = [];
        for (const c of input.cases) {
          ctx.heartbeat(evaluations.length);
          if (options.caseDelayMs) await pause(ctx, options.caseDelayMs);
          evaluations.push(override(input.spec, scoreWeatherCase(input.spec, c, input.seed), options.scoreOverrides ?? []));
        }
        window('completed');
        return evaluations;
      } catch (e) {
        window(ctx.cancellationSignal.aborted ? 'cancelled' : 'failed');
        throw e;
      }
    },
  };
}
