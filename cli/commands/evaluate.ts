import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import type { EvolutionConfig } from '../../core';
import type { EvaluationArm, EvaluationPhase, EvaluationReport, Interval } from '../../core/evaluation';
import type { EvaluationRunInput, EvaluationRunProgress } from '../../core/workflow-api/evaluation';
import type { EvaluationRunView } from '../../client/evaluation';
import { flag, numberFlag, positional, UsageError } from '../args';
import type { Command, CommandContext } from '../command';
import { withServices } from '../services';

const pct = (i: Interval) => `${(i.mean * 100).toFixed(0)}% [${(i.low * 100).toFixed(0)}, ${(i.high * 100).toFixed(0)}]`;

function listOf<T extends string>(text: string | undefined, allowed: readonly T[], fallback: readonly T[], what: string): T[] {
  if (!text) return [...fallback];
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) if (!allowed.includes(item as T)) throw new UsageError(`--${what}: "${item}" is not one of ${allowed.join(', ')}`);
  return items as T[];
}

export function reportText(r: EvaluationReport, files: { json: string; html: string }): string {
  const lines = [`evaluation ${r.runId}: family ${r.family} (built so the skill ${r.expectedEffect}), agent ${r.model.agent}`];
  for (const s of r.summaries) {
    const vs = s.vsBaseline ? `  vs baseline ${pct(s.vsBaseline.passRate)} → ${s.vsBaseline.verdict}` : '';
    lines.push(`  ${s.arm.padEnd(9)} ${s.phase.padEnd(12)} pass ${pct(s.passRate)}  quality ${pct(s.quality)}  skill_load ${pct(s.skillLoadRate)}${vs}`);
  }
  for (const t of r.totals)
    lines.push(`  cost ${t.arm.padEnd(9)} ${t.modelCalls} model calls, ${t.promptTokens} prompt + ${t.completionTokens} completion tokens (learning ${t.setup.modelCalls} calls)`);
  if (r.negativeTransfer.length) lines.push(`  negative transfer: ${r.negativeTransfer.map((n) => `${n.arm}/${n.phase}/${n.caseId}@${n.seed}`).join(', ')}`);
  lines.push(`  report: ${files.html} (JSON: ${files.json})`);
  return lines.join('\n');
}

/** One line of a run's progress: episodes done of all, and per phase each arm's done/total; the bar follows the episodes. */
export function evaluationProgressLine(p: EvaluationRunProgress): { text: string; fraction: number } {
  const total = p.blocks.reduce((a, b) => a + b.total, 0);
  const done = p.blocks.reduce((a, b) => a + b.done, 0);
  const before = p.blocks.reduce((a, b) => a + b.recordedBefore, 0);
  const phases = [...new Set(p.blocks.map((b) => b.phase))].map(
    (phase) =>
      `${phase}: ${p.blocks
        .filter((b) => b.phase === phase)
        .map((b) => `${b.arm} ${b.done}/${b.total}`)
        .join(', ')}`,
  );
  const head = `evaluation ${p.runId}: ${p.stage}${p.message ? ` (${p.message})` : ''}`;
  const episodes = total ? `, ${done}/${total} episodes${before ? ` (${before} recorded before, not repeated)` : ''}` : '';
  return { text: `${head}${episodes}${phases.length ? ` — ${phases.join('; ')}` : ''}`, fraction: total ? done / total : 0 };
}

export function evaluationViewText(v: EvaluationRunView): string {
  const lines = [`evaluation ${v.runId}: ${v.workflowStatus ? `workflow ${v.workflowStatus.toLowerCase()}` : 'no workflow in Temporal'}, ${v.recordedCases} cases recorded`];
  if (v.record)
    lines.push(`  family ${v.record.family}, arms ${v.record.arms.join(',')}, phases ${v.record.phases.join(',')}, ${v.record.seeds} seeds, started ${v.record.startedAt}`);
  if (v.progress) {
    lines.push(`  ${evaluationProgressLine(v.progress).text}`);
    for (const b of v.progress.blocks)
      lines.push(`  ${b.phase.padEnd(12)} ${b.arm.padEnd(9)} ${b.done}/${b.total} episodes, ${b.passed} passed${b.recordedBefore ? `, ${b.recordedBefore} recorded before` : ''}`);
  }
  if (v.progressUnavailable)
    lines.push(`  progress: ${v.progressUnavailable} — no worker is running it; \`evolution evaluate --family … --run-id ${v.runId}\` with the same settings resumes it`);
  if (v.report) lines.push(reportText(v.report, { json: `s3 evaluations/${v.runId}/report.json`, html: `s3 evaluations/${v.runId}/report.html` }));
  else if (v.workflowStatus && v.workflowStatus !== 'RUNNING' && v.workflowStatus !== 'COMPLETED')
    lines.push(`  the run stopped before its report: the same \`evolution evaluate … --run-id ${v.runId}\` resumes it from its records`);
  return lines.join('\n');
}

/** The run's workers, in this process, on the run's own task queues (functions of the run id: a restarted command picks the run up again). */
async function startRunWorkers(config: EvolutionConfig, runId: string, family: import('../../evaluation/family').Family, agentModel: string) {
  const { evaluationTaskQueues } = await import('../../core/workflow-api/evaluation');
  const { startMainWorker } = await import('../../workers/in-process');
  const { Worker } = await import('@temporalio/worker');
  const { connectWorkerTemporal } = await import('../../workers/connection');
  const { evolutionDataConverter } = await import('../../codec/data-converter');
  const { createOpenAIClient } = await import('../../activities/llm/openai-client');
  const { familyEvaluatorActivities } = await import('../../evaluation/evaluator');
  const { evaluationActivities } = await import('../../evaluation/activities');
  const queues = evaluationTaskQueues(runId);
  // Learning into the run's own scope: it publishes without the human gate and reviews the
  // short recorded sessions (docs/evaluation.md).
  const main = await startMainWorker(
    { ...config, governance: { ...config.governance, humanGate: 'none', approvalTimeoutMs: undefined, shadowMode: false, minToolCalls: 2 } },
    { taskQueue: queues.workflows },
  );
  const openai = createOpenAIClient(config.llm);
  const usage = { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
  const connection = await connectWorkerTemporal(main.config);
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: queues.activities,
    activities: {
      ...evaluationActivities({
        config: main.config,
        store: main.store,
        temporal: main.client,
        taskQueue: queues.workflows,
        openai,
        optimizer: { evaluatorTaskQueue: queues.activities, usage },
      }),
      ...familyEvaluatorActivities({ family, openai, agentModel, usage }),
    },
    dataConverter: evolutionDataConverter(main.config),
  });
  const running = worker.run();
  return {
    client: main.client,
    store: main.store,
    queues,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
      await main.stop();
    },
  };
}

/**
 * `--detach`: the same command, without it, in a process of its own (its output in a log beside
 * the report); returns once the workflow runs and has recorded the run, so the run's page in the
 * console (which authorizes by the recorded run's scope) and `evolution evaluation` both find it.
 */
async function detach(ctx: CommandContext, runId: string, dir: string): Promise<number> {
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'run.log');
  const fd = openSync(log, 'a');
  const argv = process.argv.slice(2).filter((a) => a !== '--detach');
  if (!argv.includes('--run-id')) argv.push('--run-id', runId);
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...argv], { detached: true, stdio: ['ignore', fd, fd], env: process.env });
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  child.unref();
  const { getEvaluationRun } = await import('../../client/evaluation');
  return withServices(ctx, async ({ temporal, store }) => {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const view = await getEvaluationRun({ client: temporal.client, store }, runId).catch(() => undefined);
      if ((view?.workflowStatus === 'RUNNING' && view.record) || (exited === 0 && view?.report)) {
        ctx.out({ runId, pid: child.pid, log }, `${runId}\n  running in the background (pid ${child.pid}, log ${log}); \`evolution evaluation ${runId}\` shows its progress`);
        return 0;
      }
      if (exited !== undefined && exited !== 0) throw new Error(`the background run ended with code ${exited} before its workflow started: see ${log}`);
      if (Date.now() > deadline) throw new Error(`the background run did not start its workflow within 3 minutes: see ${log}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  });
}

export const evaluateCommands: Record<string, Command> = {
  evaluate: {
    options: {
      list: { description: 'list the task families' },
      family: { value: 'NAME', description: 'the task family to evaluate (required without --list)' },
      arms: { value: 'ARMS', description: 'comma-separated arms (default baseline,online,optimized; baseline is always run)' },
      phases: { value: 'PHASES', description: 'comma-separated phases (default search,confirmation,replay)' },
      seeds: { value: 'N', number: true, description: 'seeds per case, 1 to 100 (default 5)' },
      'run-id': { value: 'ID', description: 'the run to resume or start (default: derived from the settings)' },
      'agent-model': { value: 'M', description: 'the agent model (default evolution-local-agent)' },
      'judge-model': { value: 'M', description: 'a judge model scoring each answer beside the grader (default EVOLUTION_JUDGE_MODEL; none when unset)' },
      concurrency: { value: 'N', number: true, description: 'episodes run at once, 1 to 32 (default 4)' },
      detach: { description: 'start the run in the background and print its id (`evolution evaluation RUN_ID` shows its progress)' },
      out: { value: 'DIR', file: true, description: 'where the report goes (default evaluation-reports/RUN_ID)' },
    },
    summary:
      'paired-arm evaluation of a task family as a Temporal workflow: pass rate, quality, tokens and skill_load rate per arm and phase, with paired confidence intervals; the same command again attaches to or resumes the run (docs/evaluation.md)',
    run: async (ctx) => {
      const { FAMILIES, familyNamed } = await import('../../evaluation/families');
      const { EVALUATION_ARMS, EVALUATION_PHASES, RunIdSchema, renderReportHtml } = await import('../../core/evaluation');
      if (ctx.args.flags.has('list')) {
        ctx.out(
          FAMILIES.map((f) => ({ name: f.name, shape: f.shape, expectedEffect: f.expectedEffect, cases: f.data.cases.length, description: f.description })),
          () => FAMILIES.map((f) => `${f.name.padEnd(18)} ${f.shape.padEnd(26)} skill ${f.expectedEffect.padEnd(5)} ${f.data.cases.length} cases  ${f.description}`).join('\n'),
        );
        return 0;
      }
      const name = flag(ctx.args, 'family');
      if (!name) throw new UsageError('--family NAME is required (evolution evaluate --list shows them)');
      let family;
      try {
        family = familyNamed(name);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      const arms = listOf<EvaluationArm>(flag(ctx.args, 'arms'), EVALUATION_ARMS, EVALUATION_ARMS, 'arms');
      if (!arms.includes('baseline')) arms.unshift('baseline');
      const phases = listOf<EvaluationPhase>(flag(ctx.args, 'phases'), EVALUATION_PHASES, EVALUATION_PHASES, 'phases');
      const seeds = numberFlag(ctx.args, 'seeds') ?? 5;
      if (!Number.isInteger(seeds) || seeds < 1 || seeds > 100) throw new UsageError('--seeds must be an integer from 1 to 100');
      const concurrency = numberFlag(ctx.args, 'concurrency');
      if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32))
        throw new UsageError('--concurrency must be an integer from 1 to 32');
      const agentModel = flag(ctx.args, 'agent-model') ?? 'evolution-local-agent';
      const config = ctx.config();
      const judgeModel = flag(ctx.args, 'judge-model') ?? config.llm.judgeModel;
      // The same command again resumes the same run: the default id is derived from what the run is.
      const derived = `${family.name}-${createHash('sha256')
        .update(JSON.stringify([arms, phases, seeds, agentModel, config.llm.baseURL, ...(judgeModel ? [judgeModel] : [])]))
        .digest('hex')
        .slice(0, 10)}`;
      const parsedId = RunIdSchema.safeParse(flag(ctx.args, 'run-id') ?? derived);
      if (!parsedId.success) throw new UsageError(`--run-id: ${parsedId.error.issues[0]?.message}`);
      const runId = parsedId.data;
      const dir = flag(ctx.args, 'out') ?? join('evaluation-reports', runId);
      if (ctx.args.flags.has('detach')) return detach(ctx, runId, dir);

      const { ensureReachable } = await import('../../runtime/reachability');
      await ensureReachable(config, ['temporal', 's3']);
      const { evaluationRunWorkflowId } = await import('../../core/workflow-ids');
      const { evaluationProgress } = await import('../../client/evaluation');
      const { createProgress, whilePolling } = await import('../progress');
      const input: EvaluationRunInput = {
        runId,
        family: family.name,
        arms,
        phases,
        seeds,
        agentModel,
        ...(judgeModel ? { judgeModel } : {}),
        ...(concurrency ? { concurrency } : {}),
      };
      const run = await startRunWorkers(config, runId, family, agentModel);
      try {
        // A run already going (its worker crashed, or another terminal follows it) is attached to; a finished or stopped one starts again from its records.
        const handle = await run.client.workflow.start('evaluationRunWorkflow', {
          workflowId: evaluationRunWorkflowId(runId),
          taskQueue: run.queues.workflows,
          args: [input],
          workflowIdConflictPolicy: 'USE_EXISTING',
        });
        const progress = createProgress(process.stderr, { quiet: ctx.json });
        let last: EvaluationRunProgress | undefined;
        const result = await whilePolling(
          handle.result() as Promise<{ reportJsonKey: string }>,
          async () => {
            last = await evaluationProgress(run.client, runId);
            const line = evaluationProgressLine(last);
            progress.update(line.text, line.fraction);
          },
          1000,
        ).finally(() => progress.end());
        const stored = await run.store.objects.getText(result.reportJsonKey);
        if (!stored || stored.notModified) throw new Error(`the run finished but ${result.reportJsonKey} is missing`);
        const report = JSON.parse(stored.value) as EvaluationReport;
        if (last) process.stderr.write(`${evaluationProgressLine({ ...last, stage: 'done', blocks: last.blocks.map((b) => ({ ...b, done: b.total })) }).text}\n`);
        mkdirSync(dir, { recursive: true });
        const files = { json: join(dir, 'report.json'), html: join(dir, 'report.html') };
        writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
        writeFileSync(files.html, renderReportHtml(report));
        ctx.out(report, () => reportText(report, files));
        return 0;
      } finally {
        await run.stop();
      }
    },
  },
  evaluation: {
    arguments: [{ name: 'RUN_ID' }],
    options: { watch: { description: 'while it runs, show its progress (a bar on a terminal, plain lines otherwise); then its state' } },
    summary: "one evaluation run: its workflow's progress per arm and phase (a query), or its report when done, or how to resume it",
    run: async (ctx) => {
      const runId = positional(ctx.args, 0, 'RUN_ID');
      const { getEvaluationRun } = await import('../../client/evaluation');
      return withServices(ctx, async ({ temporal, store }) => {
        let view = await getEvaluationRun({ client: temporal.client, store }, runId);
        if (!view.record && !view.workflowStatus) throw new UsageError(`no evaluation run ${runId}`);
        if (ctx.args.flags.has('watch') && view.workflowStatus === 'RUNNING') {
          const { createProgress } = await import('../progress');
          const progress = createProgress(process.stderr, { quiet: ctx.json });
          try {
            while (view.workflowStatus === 'RUNNING' && view.progress) {
              const line = evaluationProgressLine(view.progress);
              progress.update(line.text, line.fraction);
              await new Promise((r) => setTimeout(r, 1000));
              view = await getEvaluationRun({ client: temporal.client, store }, runId);
            }
          } finally {
            progress.end();
          }
        }
        ctx.out(view, () => evaluationViewText(view));
        return view.workflowStatus === 'FAILED' || view.workflowStatus === 'TERMINATED' ? 1 : 0;
      });
    },
  },
};
