import { readFileSync } from 'node:fs';
import type { OutcomeStatus } from '../../../core';
import { flag, requiredFlag, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { withServices } from '../services';

async function readEvents(path: string): Promise<unknown> {
  const { InputError } = await import('../../errors');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read --events ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`--events ${path} is not JSON: ${(e as Error).message}`);
  }
}

function outcomeFromFlags(args: ParsedArgs) {
  const status = flag(args, 'status');
  if (status === undefined) return undefined;
  const score = flag(args, 'score');
  return { status: status as OutcomeStatus, score: score === undefined ? undefined : Number(score), notes: flag(args, 'notes') };
}

export const learningCommands: Record<string, Command> = {
  worker: {
    usage: 'worker',
    summary: 'run the main worker (all workflows and activities) until SIGINT/SIGTERM',
    run: async () => {
      const { runMainWorker } = await import('../../../workers/main');
      await runMainWorker();
    },
  },
  learn: {
    usage: 'learn --app A --user U --session S --events FILE [--scope none|app|user] [--status success --score 0.9 --notes TEXT] [--wait]',
    summary: 'submit a finished session segment for review (FILE: JSON array of OpenAI chat messages)',
    run: async (ctx) => {
      const { args } = ctx;
      const request = {
        app: requiredFlag(args, 'app'),
        user: requiredFlag(args, 'user'),
        sessionId: requiredFlag(args, 'session'),
        scopeMode: flag(args, 'scope'),
        events: await readEvents(requiredFlag(args, 'events')),
        outcome: outcomeFromFlags(args),
      };
      const { startLearningJob, waitForLearningJob } = await import('../../learning');
      return withServices(ctx, async ({ temporal, store }) => {
        const started = await startLearningJob({ client: temporal.client, store, config: ctx.config() }, request);
        if (!args.flags.has('wait')) {
          ctx.out(started, `accepted: job ${started.jobWorkflowId}\n  session workflow ${started.sessionWorkflowId} (scope ${started.scopeKey})`);
          return 0;
        }
        const outcome = await waitForLearningJob(temporal.client, started.jobWorkflowId);
        ctx.out({ ...started, outcome }, () =>
          [
            `job ${outcome.jobId}: ${outcome.status} — ${outcome.reason}`,
            `  delta ${outcome.deltaEvents} events, cursor ${outcome.cursorAdvanced ? 'advanced' : 'NOT advanced'}`,
            ...outcome.revisions.map(
              (r) =>
                `  ${r.revisionId}  ${r.action} ${r.name}: ${r.status}${r.shadowBypassed ? ' (shadow)' : ''}${r.reasons.length ? `\n      ${r.reasons.join('\n      ')}` : ''}`,
            ),
            ...outcome.dropped.map((d) => `  dropped ${d.list} "${d.name}": ${d.reason}`),
          ].join('\n'),
        );
        return outcome.status === 'reviewer_failed' ? 1 : 0;
      });
    },
  },
};
