import type { ExperimentView } from '../../client/optimization';
import type { ExperimentScheduleView, OverlapPolicy } from '../../client/schedules';
import type { ExperimentReport } from '../../core/workflow-api';
import { mean, recordsText, reportText } from '../format-experiment';
import { flag, numberFlag, positional, requiredFlag, UsageError } from '../args';
import type { Command } from '../command';
import { storeOnly, withServices } from '../services';
import { createProgress, experimentProgressLine, whilePolling } from '../progress';

const WATCH_INTERVAL_MS = 1000;

function viewText(v: ExperimentView): string {
  if (v.report) return reportText(v.report);
  if (v.status === 'running') {
    const p = v.progress;
    if (!p) return `experiment ${v.experimentId}: running (no progress answer yet; is a worker polling?)`;
    return [
      `experiment ${v.experimentId}: running (${p.phase}, workflow run ${p.runs})`,
      `  iteration ${p.iteration}/${p.maxIterations}, metric calls ${p.metricCallsUsed}/${p.maxMetricCalls}, candidates ${p.candidateCount}`,
      `  validation mean: seed ${mean(p.seedValidationMean)} → best ${mean(p.bestValidationMean)}`,
    ].join('\n');
  }
  return `experiment ${v.experimentId}: ${v.status}${v.error ? ` — ${v.error}` : ''}`;
}

/** Exit code of a finished experiment: non-zero when it failed, reported an error, or its submission was refused. */
export function exitCode(r: ExperimentReport): number {
  return r.status === 'failed' || r.error || FAILED_SUBMISSIONS.includes(r.submission.status) ? 1 : 0;
}
const FAILED_SUBMISSIONS: ExperimentReport['submission']['status'][] = ['rejected', 'stale_parent', 'failed'];

function scheduleText(s: ExperimentScheduleView): string {
  return [
    `${s.scheduleId}  ${s.spec}  overlap ${s.overlap ?? 'skip'}${s.paused ? '  PAUSED' : ''}${s.note ? `  (${s.note})` : ''}`,
    `    runs ${s.workflowIdPrefix}-…; next: ${s.nextRuns.slice(0, 2).join(', ') || '—'}`,
    ...s.recentRuns.slice(-3).map((r) => `    ran ${r.workflowId} (scheduled ${r.scheduledAt})`),
  ].join('\n');
}

/** client/schedules.ts OVERLAP_POLICIES, which `help` must not load (@temporalio/client); a unit test holds them equal. */
export const SCHEDULE_OVERLAP_POLICIES = ['skip', 'buffer_one', 'buffer_all', 'cancel_other', 'terminate_other', 'allow_all'] as const;

export const optimizeCommands: Record<string, Command> = {
  optimize: {
    options: {
      request: { value: 'FILE', file: true, required: true, description: 'the ExperimentRequest (JSON)' },
      wait: { description: 'follow the experiment (a progress bar on a terminal, plain lines otherwise) and print its result' },
      'iterations-per-run': { value: 'N', number: true, description: 'continue-as-new after N iterations' },
    },
    summary: 'start a GEPA experiment (FILE: ExperimentRequest JSON); --wait prints its result',
    run: async (ctx) => {
      const { getExperiment, readJsonFile, startExperiment, waitForExperiment } = await import('../../client/optimization');
      const request = readJsonFile(requiredFlag(ctx.args, 'request'), '--request');
      const iterationsPerRun = numberFlag(ctx.args, 'iterations-per-run');
      return withServices(ctx, async ({ temporal, store }) => {
        const started = await startExperiment({ client: temporal.client, store, config: ctx.config() }, request, { iterationsPerRun });
        if (!ctx.args.flags.has('wait')) {
          ctx.out(
            started,
            `accepted: experiment ${started.experimentId} (workflow ${started.workflowId}) on dataset ${started.dataset.id}@${started.dataset.version}\n  follow it with: evolution experiment ${started.experimentId}`,
          );
          return 0;
        }
        const progress = createProgress(process.stderr, { quiet: ctx.json });
        const report = await whilePolling(waitForExperiment(temporal.client, started.experimentId), async () => {
          const view = await getExperiment({ client: temporal.client, store }, started.experimentId);
          if (view.progress) {
            const line = experimentProgressLine(view.progress);
            progress.update(line.text, line.fraction);
          }
        }).finally(() => progress.end());
        ctx.out(report, () => reportText(report));
        return exitCode(report);
      });
    },
  },
  experiment: {
    arguments: [{ name: 'EXPERIMENT_ID' }],
    options: {
      records: { description: 'add the iteration log, per-case evaluations and reflections' },
      watch: { description: 'while it runs, show its progress (a bar on a terminal, plain lines otherwise); then its result' },
    },
    summary:
      'status of an experiment: progress while running; scores, stop, promotion and submission when done; --records adds the iteration log, per-case evaluations and reflections',
    run: async (ctx) => {
      const id = positional(ctx.args, 0, 'EXPERIMENT_ID');
      const { getExperiment, readExperimentRecords } = await import('../../client/optimization');
      return withServices(ctx, async ({ temporal, store }) => {
        let view = await getExperiment({ client: temporal.client, store }, id);
        if (ctx.args.flags.has('watch') && view.status === 'running') {
          const progress = createProgress(process.stderr, { quiet: ctx.json });
          try {
            while (view.status === 'running') {
              if (view.progress) {
                const line = experimentProgressLine(view.progress);
                progress.update(line.text, line.fraction);
              }
              await new Promise((r) => setTimeout(r, WATCH_INTERVAL_MS));
              view = await getExperiment({ client: temporal.client, store }, id);
            }
          } finally {
            progress.end();
          }
        }
        if (ctx.args.flags.has('records')) {
          const records = await readExperimentRecords(store, id);
          ctx.out(
            { ...view, records },
            () => `${viewText(view)}

${recordsText(records)}`,
          );
        } else ctx.out(view, () => viewText(view));
        return view.report ? exitCode(view.report) : view.status === 'running' ? 0 : 1;
      });
    },
  },
  schedule: {
    arguments: [
      { name: 'ACTION', choices: ['create', 'list', 'delete'] },
      { name: 'ID', optional: true, description: 'the schedule to delete' },
    ],
    options: {
      id: { value: 'ID', description: 'create: the schedule id' },
      request: { value: 'FILE', file: true, description: 'create: the ExperimentRequest (JSON) each run starts' },
      cron: { value: 'SPEC', description: 'create: a cron spec, e.g. "0 3 * * *"' },
      every: { value: 'INTERVAL', description: 'create: an interval instead, e.g. 6h' },
      overlap: { value: 'POLICY', choices: SCHEDULE_OVERLAP_POLICIES, description: 'create: what a run due while the last one runs does (default skip)' },
      note: { value: 'TEXT', description: 'create: a note shown in the list' },
      paused: { description: 'create: start paused' },
    },
    summary: 'run experiments on a Temporal Schedule (dataset by id/version, parent resolved at each run)',
    run: async (ctx) => {
      const sub = positional(ctx.args, 0, 'create|list|delete');
      const { readJsonFile } = await import('../../client/optimization');
      const { createExperimentSchedule, deleteExperimentSchedule, listExperimentSchedules, OVERLAP_POLICIES } = await import('../../client/schedules');
      return withServices(ctx, async ({ temporal, store }) => {
        if (sub === 'create') {
          const overlap = (flag(ctx.args, 'overlap') ?? 'skip') as OverlapPolicy;
          if (!OVERLAP_POLICIES.includes(overlap)) throw new UsageError(`--overlap must be one of ${OVERLAP_POLICIES.join(', ')}`);
          const view = await createExperimentSchedule(
            { client: temporal.client, store, config: ctx.config() },
            {
              scheduleId: requiredFlag(ctx.args, 'id'),
              request: readJsonFile(requiredFlag(ctx.args, 'request'), '--request'),
              cron: flag(ctx.args, 'cron'),
              every: flag(ctx.args, 'every'),
              overlap,
              note: flag(ctx.args, 'note'),
              paused: ctx.args.flags.get('paused') === true,
            },
          );
          ctx.out(view, `created schedule\n${scheduleText(view)}`);
        } else if (sub === 'list') {
          const views = await listExperimentSchedules(temporal.client);
          ctx.out(views, () => (views.length ? views.map(scheduleText).join('\n') : 'no experiment schedules'));
        } else if (sub === 'delete') {
          const id = positional(ctx.args, 1, 'schedule ID');
          await deleteExperimentSchedule(temporal.client, id);
          ctx.out({ deleted: id }, `deleted schedule ${id} (runs already started keep running)`);
        } else {
          throw new UsageError(`unknown schedule subcommand "${sub}"`);
        }
        return 0;
      });
    },
  },
  dataset: {
    arguments: [
      { name: 'ACTION', choices: ['put'] },
      { name: 'FILE', file: true },
    ],
    summary: 'store a frozen GEPA dataset (JSON {id, version, feedback, validation, holdout}); create-only per id and version',
    run: async (ctx) => {
      const sub = positional(ctx.args, 0, 'put');
      if (sub !== 'put') throw new UsageError(`unknown dataset subcommand "${sub}"`);
      const { putDatasetFile } = await import('../../client/optimization');
      const stored = await putDatasetFile(await storeOnly(ctx), positional(ctx.args, 1, 'FILE'));
      ctx.out(stored, () =>
        [
          `stored dataset ${stored.dataset.id}@${stored.dataset.version}: ${stored.cases.feedback} feedback, ${stored.cases.validation} validation, ${stored.cases.holdout} holdout cases`,
          ...stored.submitProblems.map((p) => `  note: cannot back a submission yet: ${p}`),
        ].join('\n'),
      );
    },
  },
  'evaluator-worker': {
    options: {
      'task-queue': { value: 'Q', description: 'the evaluator task queue (default EVOLUTION_EVALUATOR_TASK_QUEUE)' },
      identity: { value: 'NAME', description: 'the worker identity' },
      'delay-ms': { value: 'N', number: true, description: 'delay of each evaluate call' },
      'case-delay-ms': { value: 'N', number: true, description: 'delay per case' },
      'max-concurrent': { value: 'N', number: true, description: 'concurrent evaluate calls' },
      'windows-file': { value: 'FILE', file: true, description: 'append one JSON line per call (identity, start, end)' },
      override: { value: 'LIST', description: 'comma-separated CASE=SCORE[@REGEX] score overrides' },
      'evaluator-version': { value: 'V', description: 'the evaluator version it reports' },
      'model-version': { value: 'V', description: 'the model version it reports' },
    },
    summary: 'run the example evaluator (simulated weather family) on the evaluator task queue until SIGINT/SIGTERM',
    run: async (ctx) => {
      const a = ctx.args;
      const overrides = flag(a, 'override');
      const { parseScoreOverrides, runEvaluatorWorker } = await import('../../workers/evaluator/main');
      await runEvaluatorWorker(
        {
          taskQueue: flag(a, 'task-queue'),
          identity: flag(a, 'identity'),
          delayMs: numberFlag(a, 'delay-ms'),
          caseDelayMs: numberFlag(a, 'case-delay-ms'),
          maxConcurrent: numberFlag(a, 'max-concurrent'),
          windowsFile: flag(a, 'windows-file'),
          scoreOverrides: overrides ? parseScoreOverrides(overrides) : undefined,
          evaluatorVersion: flag(a, 'evaluator-version'),
          modelVersion: flag(a, 'model-version'),
        },
        ctx.config(),
      );
    },
  },
  recertify: {
    options: {
      scope: { value: 'SCOPE', description: 'only the optimized revisions of this scope key (default: every scope); with --status, the scope to show' },
      schedule: { value: 'EVERY', description: 'instead of running now, create or update the re-certification schedule (e.g. 1d, 6h; at least 1m)' },
      status: { description: 'show the latest check of each optimized revision of --scope (verdict, reason, holdout delta)' },
    },
    summary:
      'run re-certification now (re-run the holdout of every optimized revision whose evaluator or model version changed; verdicts current, recertified, stale, regressed), schedule it, or show its checks of a scope',
    run: async (ctx) => {
      const scope = flag(ctx.args, 'scope');
      const { runRecertification, scheduleRecertification, certificationChecks } = await import('../../client/recertification');
      if (ctx.args.flags.has('status')) {
        if (!scope) throw new UsageError('--status needs --scope SCOPE');
        return withServices(ctx, async ({ store }) => {
          const checks = await certificationChecks(store, scope);
          ctx.out(checks, () =>
            checks.length
              ? checks
                  .map(
                    (c) =>
                      `${c.skillId} ${c.revisionId}: ${c.verdict} — ${c.reason} (checked ${c.checkedAt}${c.delta !== undefined ? `, holdout delta ${c.delta.toFixed(3)}` : ''})`,
                  )
                  .join('\n')
              : `no re-certification checks in ${scope}`,
          );
          return 0;
        });
      }
      const input = scope ? { scopeKeys: [scope] } : {};
      return withServices(ctx, async ({ temporal }) => {
        const deps = { client: temporal.client, config: ctx.config() };
        const every = flag(ctx.args, 'schedule');
        if (every) {
          const scheduled = await scheduleRecertification(deps, every, input);
          ctx.out(scheduled, `re-certification scheduled every ${scheduled.every} (schedule ${scheduled.scheduleId}, overlapping runs skipped)`);
          return 0;
        }
        const result = await runRecertification(deps, input);
        ctx.out(result, () =>
          [
            `checked ${result.checked} optimized revisions: ${Object.entries(result.verdicts)
              .map(([k, v]) => `${v} ${k}`)
              .join(', ')}`,
            ...result.checks.map((c) => `  ${c.skillId} ${c.revisionId}: ${c.verdict} — ${c.reason}`),
          ].join('\n'),
        );
        return result.verdicts.regressed ? 1 : 0;
      });
    },
  },
};
