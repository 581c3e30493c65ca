import { ApplicationFailure, Context } from '@temporalio/activity';
import { ArmSetupSchema, evaluationKeys, type ArmSetup, type EvaluationArm } from '../core/evaluation';
import type { EvaluationActivities, EvaluationBlock, EvaluationCaseInput, EvaluationCaseOutcome, EvaluationRunInput } from '../core/workflow-api/evaluation';
import { NON_RETRYABLE } from '../core/failure-types';
import { PreconditionConflictError } from '../storage/errors';
import { whileHeartbeating } from '../activities/heartbeat';
import { familyNamed } from './families';
import { armSetup, planBlocks, recordRun, runCase, writeReport, type EvaluationDeps, type EvaluationRunOptions } from './run';

/** Not retried: a run id reused for other settings, or a family this worker does not know. */
const EVALUATION_RUN_REFUSED = NON_RETRYABLE.evaluationRun;

function optionsOf(input: EvaluationRunInput): EvaluationRunOptions {
  let family;
  try {
    family = familyNamed(input.family);
  } catch (e) {
    throw ApplicationFailure.create({ type: EVALUATION_RUN_REFUSED, nonRetryable: true, message: (e as Error).message });
  }
  return { runId: input.runId, family, arms: input.arms, phases: input.phases, seeds: input.seeds, agentModel: input.agentModel, judgeModel: input.judgeModel };
}

/**
 * The evaluation run's activities (workflows/evaluation.ts), on the run's own task queue:
 * they hold the family's code (tools, grader) and the agent loop. Each is idempotent by
 * the run's records in S3: the run record and the arms' setups are create-only, each case
 * is keyed by run id, arm, phase, case and seed and read back when recorded.
 */
export function evaluationActivities(deps: EvaluationDeps): EvaluationActivities {
  // Setups are immutable once stored: each case reads its arm's once per process.
  const setups = new Map<string, Promise<ArmSetup>>();
  const setupOf = (runId: string, arm: EvaluationArm) => {
    const key = evaluationKeys.armSetup(runId, arm);
    if (!setups.has(key))
      setups.set(
        key,
        deps.store.objects.getJson(key, ArmSetupSchema).then((s) => {
          if (!s) throw new Error(`evaluation run ${runId}: the ${arm} arm has no setup yet (${key})`);
          return s.value;
        }),
      );
    const pending = setups.get(key)!;
    pending.catch(() => setups.delete(key));
    return pending;
  };

  return {
    async planEvaluation(input: EvaluationRunInput & { startedAt: string }): Promise<EvaluationBlock[]> {
      const opts = optionsOf(input);
      try {
        await recordRun(deps.store, opts, input.startedAt);
      } catch (e) {
        if (e instanceof PreconditionConflictError && !e.retryable) throw ApplicationFailure.create({ type: EVALUATION_RUN_REFUSED, nonRetryable: true, message: e.message });
        throw e;
      }
      return planBlocks(opts);
    },

    async setupEvaluationArm(input: EvaluationRunInput & { arm: EvaluationArm }): Promise<{ arm: EvaluationArm; skills: string[]; notes: string[] }> {
      const opts = optionsOf(input);
      const setup = await whileHeartbeating(() => armSetup(deps, opts, input.arm, (message) => Context.current().heartbeat(message)));
      return { arm: setup.arm, skills: setup.skills.map((s) => s.name), notes: setup.notes };
    },

    async runEvaluationCase(input: EvaluationCaseInput): Promise<EvaluationCaseOutcome> {
      const opts = optionsOf(input);
      const setup = await setupOf(input.runId, input.arm);
      const { result, recordedBefore } = await whileHeartbeating((signal) =>
        runCase(deps, opts, setup, { arm: input.arm, phase: input.phase, caseId: input.caseId, seed: input.seed }, signal),
      );
      return { pass: result.pass, quality: result.quality, recordedBefore };
    },

    async writeEvaluationReport(input: EvaluationRunInput & { generatedAt: string }): Promise<{ reportJsonKey: string; reportHtmlKey: string; episodes: number }> {
      const report = await writeReport(deps, optionsOf(input), input.generatedAt);
      return {
        reportJsonKey: evaluationKeys.reportJson(input.runId),
        reportHtmlKey: evaluationKeys.reportHtml(input.runId),
        episodes: report.summaries.reduce((a, s) => a + s.episodes, 0),
      };
    },
  };
}
