"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.optimizeCommands = void 0;
exports.exitCode = exitCode;
const format_experiment_1 = require("../format-experiment");
const args_1 = require("../args");
const services_1 = require("../services");
function viewText(v) {
    if (v.report)
        return (0, format_experiment_1.reportText)(v.report);
    if (v.status === 'running') {
        const p = v.progress;
        if (!p)
            return `experiment ${v.experimentId}: running (no progress answer yet; is a worker polling?)`;
        return [
            `experiment ${v.experimentId}: running (${p.phase}, workflow run ${p.runs})`,
            `  iteration ${p.iteration}/${p.maxIterations}, metric calls ${p.metricCallsUsed}/${p.maxMetricCalls}, candidates ${p.candidateCount}`,
            `  validation mean: seed ${(0, format_experiment_1.mean)(p.seedValidationMean)} → best ${(0, format_experiment_1.mean)(p.bestValidationMean)}`,
        ].join('\n');
    }
    return `experiment ${v.experimentId}: ${v.status}${v.error ? ` — ${v.error}` : ''}`;
}
/** Exit code of a finished experiment: non-zero when it failed, reported an error, or its submission was refused. */
function exitCode(r) {
    return r.status === 'failed' || r.error || FAILED_SUBMISSIONS.includes(r.submission.status) ? 1 : 0;
}
const FAILED_SUBMISSIONS = ['rejected', 'stale_parent', 'failed'];
function scheduleText(s) {
    return [
        `${s.scheduleId}  ${s.spec}  overlap ${s.overlap ?? 'skip'}${s.paused ? '  PAUSED' : ''}${s.note ? `  (${s.note})` : ''}`,
        `    runs ${s.workflowIdPrefix}-…; next: ${s.nextRuns.slice(0, 2).join(', ') || '—'}`,
        ...s.recentRuns.slice(-3).map((r) => `    ran ${r.workflowId} (scheduled ${r.scheduledAt})`),
    ].join('\n');
}
exports.optimizeCommands = {
    optimize: {
        usage: 'optimize --request FILE [--wait] [--iterations-per-run N]',
        summary: 'start a GEPA experiment (FILE: ExperimentRequest JSON); --wait prints its result',
        run: async (ctx) => {
            const { readJsonFile, startExperiment, waitForExperiment } = await Promise.resolve().then(() => __importStar(require('../../optimization')));
            const request = readJsonFile((0, args_1.requiredFlag)(ctx.args, 'request'), '--request');
            const iterationsPerRun = (0, args_1.numberFlag)(ctx.args, 'iterations-per-run');
            return (0, services_1.withServices)(ctx, async ({ temporal, store }) => {
                const started = await startExperiment({ client: temporal.client, store, config: ctx.config() }, request, { iterationsPerRun });
                if (!ctx.args.flags.has('wait')) {
                    ctx.out(started, `accepted: experiment ${started.experimentId} (workflow ${started.workflowId}) on dataset ${started.dataset.id}@${started.dataset.version}\n  follow it with: evolution experiment ${started.experimentId}`);
                    return 0;
                }
                const report = await waitForExperiment(temporal.client, started.experimentId);
                ctx.out(report, () => (0, format_experiment_1.reportText)(report));
                return exitCode(report);
            });
        },
    },
    experiment: {
        usage: 'experiment EXPERIMENT_ID [--records]',
        summary: 'status of an experiment: progress while running; scores, stop, promotion and submission when done; --records adds the iteration log, per-case evaluations and reflections',
        run: async (ctx) => {
            const id = (0, args_1.positional)(ctx.args, 0, 'EXPERIMENT_ID');
            const { getExperiment, readExperimentRecords } = await Promise.resolve().then(() => __importStar(require('../../optimization')));
            return (0, services_1.withServices)(ctx, async ({ temporal, store }) => {
                const view = await getExperiment({ client: temporal.client, store }, id);
                if (ctx.args.flags.has('records')) {
                    const records = await readExperimentRecords(store, id);
                    ctx.out({ ...view, records }, () => `${viewText(view)}

${(0, format_experiment_1.recordsText)(records)}`);
                }
                else
                    ctx.out(view, () => viewText(view));
                return view.report ? exitCode(view.report) : view.status === 'running' ? 0 : 1;
            });
        },
    },
    schedule: {
        usage: 'schedule create --id ID --request FILE (--cron "0 3 * * *" | --every 6h) [--overlap skip|buffer_one|…] [--note TEXT] [--paused] | list | delete ID',
        summary: 'run experiments on a Temporal Schedule (dataset by id/version, parent resolved at each run)',
        run: async (ctx) => {
            const sub = (0, args_1.positional)(ctx.args, 0, 'create|list|delete');
            const { readJsonFile } = await Promise.resolve().then(() => __importStar(require('../../optimization')));
            const { createExperimentSchedule, deleteExperimentSchedule, listExperimentSchedules, OVERLAP_POLICIES } = await Promise.resolve().then(() => __importStar(require('../../schedules')));
            return (0, services_1.withServices)(ctx, async ({ temporal, store }) => {
                if (sub === 'create') {
                    const overlap = ((0, args_1.flag)(ctx.args, 'overlap') ?? 'skip');
                    if (!OVERLAP_POLICIES.includes(overlap))
                        throw new args_1.UsageError(`--overlap must be one of ${OVERLAP_POLICIES.join(', ')}`);
                    const view = await createExperimentSchedule({ client: temporal.client, store, config: ctx.config() }, { scheduleId: (0, args_1.requiredFlag)(ctx.args, 'id'), request: readJsonFile((0, args_1.requiredFlag)(ctx.args, 'request'), '--request'), cron: (0, args_1.flag)(ctx.args, 'cron'), every: (0, args_1.flag)(ctx.args, 'every'), overlap, note: (0, args_1.flag)(ctx.args, 'note'), paused: ctx.args.flags.get('paused') === true });
                    ctx.out(view, `created schedule\n${scheduleText(view)}`);
                }
                else if (sub === 'list') {
                    const views = await listExperimentSchedules(temporal.client);
                    ctx.out(views, () => (views.length ? views.map(scheduleText).join('\n') : 'no experiment schedules'));
                }
                else if (sub === 'delete') {
                    const id = (0, args_1.positional)(ctx.args, 1, 'schedule ID');
                    await deleteExperimentSchedule(temporal.client, id);
                    ctx.out({ deleted: id }, `deleted schedule ${id} (runs already started keep running)`);
                }
                else {
                    throw new args_1.UsageError(`unknown schedule subcommand "${sub}"`);
                }
                return 0;
            });
        },
    },
    dataset: {
        usage: 'dataset put FILE',
        summary: 'store a frozen GEPA dataset (JSON {id, version, feedback, validation, holdout}); create-only per id and version',
        run: async (ctx) => {
            const sub = (0, args_1.positional)(ctx.args, 0, 'put');
            if (sub !== 'put')
                throw new args_1.UsageError(`unknown dataset subcommand "${sub}"`);
            const { putDatasetFile } = await Promise.resolve().then(() => __importStar(require('../../optimization')));
            const stored = await putDatasetFile(await (0, services_1.storeOnly)(ctx), (0, args_1.positional)(ctx.args, 1, 'FILE'));
            ctx.out(stored, () => [
                `stored dataset ${stored.dataset.id}@${stored.dataset.version}: ${stored.cases.feedback} feedback, ${stored.cases.validation} validation, ${stored.cases.holdout} holdout cases`,
                ...stored.submitProblems.map((p) => `  note: cannot back a submission yet: ${p}`),
            ].join('\n'));
        },
    },
    'evaluator-worker': {
        usage: 'evaluator-worker [--task-queue Q] [--identity NAME] [--delay-ms N] [--case-delay-ms N] [--max-concurrent N] [--windows-file FILE] [--override CASE=SCORE[@REGEX],…]',
        summary: 'run the example evaluator (simulated weather family) on the evaluator task queue until SIGINT/SIGTERM',
        run: async (ctx) => {
            const a = ctx.args;
            const overrides = (0, args_1.flag)(a, 'override');
            const { parseScoreOverrides, runEvaluatorWorker } = await Promise.resolve().then(() => __importStar(require('../../../workers/evaluator/main')));
            await runEvaluatorWorker({
                taskQueue: (0, args_1.flag)(a, 'task-queue'),
                identity: (0, args_1.flag)(a, 'identity'),
                delayMs: (0, args_1.numberFlag)(a, 'delay-ms'),
                caseDelayMs: (0, args_1.numberFlag)(a, 'case-delay-ms'),
                maxConcurrent: (0, args_1.numberFlag)(a, 'max-concurrent'),
                windowsFile: (0, args_1.flag)(a, 'windows-file'),
                scoreOverrides: overrides ? parseScoreOverrides(overrides) : undefined,
            });
        },
    },
};
//# sourceMappingURL=optimize.js.map