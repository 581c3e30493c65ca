import { continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { checkEvaluationRunInput } from '../core/workflow-inputs/evaluation-run';
import {
  evaluationProgressQuery,
  evaluationTaskQueues,
  type EvaluationActivities,
  type EvaluationBlock,
  type EvaluationRunInput,
  type EvaluationRunProgress,
  type EvaluationRunResult,
} from '../core/workflow-api/evaluation';
import { requireValidInput } from './input-guard';
import { evaluationRetry } from './retry-policies';

export type { EvaluationRunInput, EvaluationRunResult };

/** Where a run continued-as-new: its progress so far, and the next case (block, index in it). */
export interface EvaluationCarried {
  progress: EvaluationRunProgress;
  block: number;
  index: number;
}

/** History events after which a run continues as new at the next batch boundary (each case costs about three). */
const HISTORY_EVENTS_LIMIT = 3_000;
const DEFAULT_CONCURRENCY = 4;

/**
 * One evaluation run (`evolution evaluate`): plan, the arms' setups (baseline none, online
 * through the learning workflow, optimized by a GEPA experiment), then every arm × phase ×
 * case × seed as an activity, a few at a time, then the report. Every step is idempotent by
 * the run's records in S3, so a worker that died, or the run itself terminated and started
 * again, never repeats a finished case. Progress is a query (nothing in history); history
 * stays bounded by continuing as new; payloads are ids and scores, the records stay in S3.
 */
export async function evaluationRunWorkflow(input: EvaluationRunInput, carried?: EvaluationCarried): Promise<EvaluationRunResult> {
  requireValidInput('evaluationRun', checkEvaluationRunInput(input));
  const { activities: taskQueue } = evaluationTaskQueues(input.runId);
  const quick = proxyActivities<EvaluationActivities>({ taskQueue, startToCloseTimeout: '5 minutes', retry: evaluationRetry });
  const cases = proxyActivities<EvaluationActivities>({ taskQueue, startToCloseTimeout: '30 minutes', heartbeatTimeout: '30 seconds', retry: evaluationRetry });
  const setups = proxyActivities<EvaluationActivities>({ taskQueue, startToCloseTimeout: '6 hours', heartbeatTimeout: '1 minute', retry: evaluationRetry });

  const progress: EvaluationRunProgress = carried?.progress ?? { runId: input.runId, family: input.family, stage: 'planning', blocks: [] };
  setHandler(evaluationProgressQuery, () => progress);

  // Planning is cheap and deterministic (the family's data): a continued run asks again rather than carrying the plan.
  const blocks: EvaluationBlock[] = await quick.planEvaluation({ ...input, startedAt: new Date().toISOString() });
  if (!carried) {
    progress.blocks = blocks.map((b) => ({ arm: b.arm, phase: b.phase, done: 0, total: b.caseIds.length * b.seeds.length, recordedBefore: 0, passed: 0 }));
    progress.stage = 'setting up';
    for (const arm of input.arms) {
      progress.message =
        arm === 'baseline' ? 'baseline: no skills' : arm === 'online' ? 'online: learning from the recorded sessions' : 'optimized: a GEPA experiment on the learned skill';
      await setups.setupEvaluationArm({ ...input, arm });
    }
    progress.message = undefined;
    progress.stage = 'running';
  }

  const concurrency = input.concurrency ?? DEFAULT_CONCURRENCY;
  for (let b = carried?.block ?? 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    const counters = progress.blocks[b]!;
    const items = block.seeds.flatMap((seed) => block.caseIds.map((caseId) => ({ caseId, seed })));
    for (let i = b === carried?.block ? carried.index : 0; i < items.length; i += concurrency) {
      if (workflowInfo().historyLength > HISTORY_EVENTS_LIMIT || workflowInfo().continueAsNewSuggested) {
        await continueAsNew<typeof evaluationRunWorkflow>(input, { progress, block: b, index: i });
      }
      await Promise.all(
        items.slice(i, i + concurrency).map(async (item) => {
          const outcome = await cases.runEvaluationCase({ ...input, arm: block.arm, phase: block.phase, ...item });
          counters.done++;
          if (outcome.recordedBefore) counters.recordedBefore++;
          if (outcome.pass) counters.passed++;
        }),
      );
    }
  }

  progress.stage = 'reporting';
  const report = await quick.writeEvaluationReport({ ...input, generatedAt: new Date().toISOString() });
  progress.stage = 'done';
  return {
    runId: input.runId,
    reportJsonKey: report.reportJsonKey,
    reportHtmlKey: report.reportHtmlKey,
    episodes: report.episodes,
    recordedBefore: progress.blocks.reduce((a, x) => a + x.recordedBefore, 0),
  };
}
