import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { EvolutionConfig } from '../../core';
import type { EvaluationArm, EvaluationPhase, EvaluationReport, Interval } from '../../core/evaluation';
import { flag, numberFlag, UsageError } from '../args';
import type { Command } from '../command';

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

/** A bar on a terminal, one line per episode otherwise. */
function progressPrinter(): (p: { done: number; total: number; resumed: number; message?: string }) => void {
  const tty = process.stderr.isTTY;
  return (p) => {
    if (p.message) {
      process.stderr.write(`${tty ? '\r\x1b[K' : ''}${p.message}\n`);
      return;
    }
    const text = `${p.done}/${p.total} episodes${p.resumed ? ` (${p.resumed} recorded before, not repeated)` : ''}`;
    if (!tty) return void process.stderr.write(`${text}\n`);
    const width = 30;
    const filled = Math.round((p.done / Math.max(1, p.total)) * width);
    process.stderr.write(`\r\x1b[K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}${p.done === p.total ? '\n' : ''}`);
  };
}

/** The family's evaluator on a task queue of the run's own, in this process, for the optimized arm's GEPA experiment. */
async function startFamilyEvaluator(
  config: EvolutionConfig,
  opts: Parameters<typeof import('../../evaluation/evaluator').familyEvaluatorActivities>[0] extends infer O ? Omit<O, 'usage'> : never,
) {
  const { Worker } = await import('@temporalio/worker');
  const { connectWorkerTemporal } = await import('../../workers/connection');
  const { evolutionDataConverter } = await import('../../codec/data-converter');
  const { familyEvaluatorActivities } = await import('../../evaluation/evaluator');
  const usage = { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
  const taskQueue = `evaluate-evaluator-${randomBytes(4).toString('hex')}`;
  const connection = await connectWorkerTemporal(config);
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue,
    activities: familyEvaluatorActivities({ ...opts, usage }),
    dataConverter: evolutionDataConverter(config),
  });
  const running = worker.run();
  return {
    optimizer: { evaluatorTaskQueue: taskQueue, usage },
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
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
      out: { value: 'DIR', file: true, description: 'where the report goes (default evaluation-reports/RUN_ID)' },
    },
    summary: 'paired-arm evaluation of a task family: pass rate, quality, tokens and skill_load rate per arm and phase, with paired confidence intervals (docs/evaluation.md)',
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
      const agentModel = flag(ctx.args, 'agent-model') ?? 'evolution-local-agent';
      const config = ctx.config();
      // The same command again resumes the same run: the default id is derived from what the run is.
      const derived = `${family.name}-${createHash('sha256')
        .update(JSON.stringify([arms, phases, seeds, agentModel, config.llm.baseURL]))
        .digest('hex')
        .slice(0, 10)}`;
      const parsedId = RunIdSchema.safeParse(flag(ctx.args, 'run-id') ?? derived);
      if (!parsedId.success) throw new UsageError(`--run-id: ${parsedId.error.issues[0]?.message}`);
      const runId = parsedId.data;

      const { ensureReachable } = await import('../../runtime/reachability');
      await ensureReachable(config, ['temporal', 's3']);
      const { startMainWorker } = await import('../../workers/in-process');
      const { createOpenAIClient } = await import('../../activities/llm/openai-client');
      const { runEvaluation } = await import('../../evaluation/run');
      // The run's own worker: it learns into the run's own scope, so it publishes without the
      // human gate and reviews the short recorded sessions (docs/evaluation.md).
      const worker = await startMainWorker({
        ...config,
        governance: { ...config.governance, humanGate: 'none', approvalTimeoutMs: undefined, shadowMode: false, minToolCalls: 2 },
      });
      const openai = createOpenAIClient(config.llm);
      const evaluator = arms.includes('optimized') ? await startFamilyEvaluator(worker.config, { family, openai, agentModel }) : undefined;
      try {
        const report = await runEvaluation(
          { config: worker.config, store: worker.store, temporal: worker.client, taskQueue: worker.taskQueue, openai, optimizer: evaluator?.optimizer },
          { runId, family, arms, phases, seeds, agentModel },
          progressPrinter(),
        );
        const dir = flag(ctx.args, 'out') ?? join('evaluation-reports', runId);
        mkdirSync(dir, { recursive: true });
        const files = { json: join(dir, 'report.json'), html: join(dir, 'report.html') };
        writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
        writeFileSync(files.html, renderReportHtml(report));
        ctx.out(report, () => reportText(report, files));
        return 0;
      } finally {
        await evaluator?.stop();
        await worker.stop();
      }
    },
  },
};
