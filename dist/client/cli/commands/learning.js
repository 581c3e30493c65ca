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
exports.learningCommands = void 0;
const node_fs_1 = require("node:fs");
const args_1 = require("../args");
const services_1 = require("../services");
async function readEvents(path) {
    const { InputError } = await Promise.resolve().then(() => __importStar(require('../../errors')));
    let text;
    try {
        text = (0, node_fs_1.readFileSync)(path, 'utf8');
    }
    catch (e) {
        throw new InputError(`cannot read --events ${path}: ${e.message}`);
    }
    try {
        return JSON.parse(text);
    }
    catch (e) {
        throw new InputError(`--events ${path} is not JSON: ${e.message}`);
    }
}
function outcomeFromFlags(args) {
    const status = (0, args_1.flag)(args, 'status');
    if (status === undefined)
        return undefined;
    const score = (0, args_1.flag)(args, 'score');
    return { status: status, score: score === undefined ? undefined : Number(score), notes: (0, args_1.flag)(args, 'notes') };
}
exports.learningCommands = {
    worker: {
        usage: 'worker',
        summary: 'run the main worker (all workflows and activities) until SIGINT/SIGTERM',
        run: async () => {
            const { runMainWorker } = await Promise.resolve().then(() => __importStar(require('../../../workers/main')));
            await runMainWorker();
        },
    },
    learn: {
        usage: 'learn --app A --user U --session S --events FILE [--scope none|app|user] [--status success --score 0.9 --notes TEXT] [--wait]',
        summary: 'submit a finished session segment for review (FILE: JSON array of OpenAI chat messages)',
        run: async (ctx) => {
            const { args } = ctx;
            const request = {
                app: (0, args_1.requiredFlag)(args, 'app'),
                user: (0, args_1.requiredFlag)(args, 'user'),
                sessionId: (0, args_1.requiredFlag)(args, 'session'),
                scopeMode: (0, args_1.flag)(args, 'scope'),
                events: await readEvents((0, args_1.requiredFlag)(args, 'events')),
                outcome: outcomeFromFlags(args),
            };
            const { startLearningJob, waitForLearningJob } = await Promise.resolve().then(() => __importStar(require('../../learning')));
            return (0, services_1.withServices)(ctx, async ({ temporal, store }) => {
                const started = await startLearningJob({ client: temporal.client, store, config: ctx.config() }, request);
                if (!args.flags.has('wait')) {
                    ctx.out(started, `accepted: job ${started.jobWorkflowId}\n  session workflow ${started.sessionWorkflowId} (scope ${started.scopeKey})`);
                    return 0;
                }
                const outcome = await waitForLearningJob(temporal.client, started.jobWorkflowId);
                ctx.out({ ...started, outcome }, () => [
                    `job ${outcome.jobId}: ${outcome.status} — ${outcome.reason}`,
                    `  delta ${outcome.deltaEvents} events, cursor ${outcome.cursorAdvanced ? 'advanced' : 'NOT advanced'}`,
                    ...outcome.revisions.map((r) => `  ${r.revisionId}  ${r.action} ${r.name}: ${r.status}${r.shadowBypassed ? ' (shadow)' : ''}${r.reasons.length ? `\n      ${r.reasons.join('\n      ')}` : ''}`),
                    ...outcome.dropped.map((d) => `  dropped ${d.list} "${d.name}": ${d.reason}`),
                ].join('\n'));
                return outcome.status === 'reviewer_failed' ? 1 : 0;
            });
        },
    },
};
//# sourceMappingURL=learning.js.map