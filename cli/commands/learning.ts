import { readFileSync } from 'node:fs';
import type { OutcomeStatus } from '../../core';
import type { JobOutcome } from '../../core/governance';
import type { JobView } from '../../client/jobs';
import { boolFlag, flag, numberFlag, positional, requiredFlag, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { SCOPE_OPTIONS, scopeKeyFromFlags } from '../scope-flags';
import { storeOnly, withServices } from '../services';
import { jobFailureLines, jobFailureSummary } from '../format';
import { createProgress, learningJobProgressLine, whilePolling } from '../progress';

async function readEvents(path: string): Promise<unknown> {
  const { InputError } = await import('../../core/errors');
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
    summary: 'run the main worker (all workflows and activities) until SIGINT/SIGTERM',
    run: async (ctx) => {
      const { runMainWorker } = await import('../../workers/main');
      await runMainWorker(ctx.config());
    },
  },
  learn: {
    options: {
      app: { ...SCOPE_OPTIONS.app, required: true },
      user: { value: 'U', required: true, description: 'the user whose session this is' },
      session: { value: 'S', required: true, description: 'the session id (segments of one session are reviewed in order)' },
      events: { value: 'FILE', file: true, required: true, description: 'the segment: a JSON array of OpenAI chat messages' },
      scope: SCOPE_OPTIONS.scope,
      status: { value: 'STATUS', description: 'how the session went (e.g. success, failure)' },
      score: { value: 'N', number: true, description: 'its score, with --status' },
      notes: { value: 'TEXT', description: 'notes on the outcome, with --status' },
      wait: { description: 'wait for the job (its step on a terminal, plain lines otherwise) and print its outcome' },
    },
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
      const { startLearningJob, waitForLearningJob } = await import('../../client/learning');
      return withServices(ctx, async ({ temporal, store }) => {
        const started = await startLearningJob({ client: temporal.client, store, config: ctx.config() }, request);
        if (!args.flags.has('wait')) {
          ctx.out(started, `accepted: job ${started.jobWorkflowId}\n  session workflow ${started.sessionWorkflowId} (scope ${started.scopeKey})`);
          return 0;
        }
        const { learningJobProgressQuery } = await import('../../core/workflow-api/session');
        const progress = createProgress(process.stderr, { quiet: ctx.json });
        const job = temporal.client.workflow.getHandle(started.jobWorkflowId);
        const outcome = await whilePolling(
          waitForLearningJob({ client: temporal.client, store }, started.jobWorkflowId),
          async () => progress.update(learningJobProgressLine(started.jobWorkflowId, await job.query(learningJobProgressQuery).catch(() => undefined))),
          500,
        ).finally(() => progress.end());
        ctx.out({ ...started, outcome }, () => formatOutcome(outcome));
        return outcome.status === 'reviewer_failed' ? 1 : 0;
      });
    },
  },
  jobs: {
    options: {
      ...SCOPE_OPTIONS,
      limit: { value: 'N', number: true, description: 'at most N jobs (default 20)' },
      quarantined: { description: 'list the deltas its sessions stepped over instead' },
    },
    summary: "a scope's most recent learning jobs with their outcomes; --quarantined: the deltas its sessions stepped over",
    run: async (ctx) => {
      const scopeKey = scopeKeyFromFlags(ctx.args);
      if (boolFlag(ctx.args, 'quarantined')) {
        const { listQuarantines } = await import('../../client/jobs');
        const entries = await listQuarantines(await storeOnly(ctx), scopeKey);
        ctx.out(entries, () =>
          entries.length ? entries.map((e) => [`${e.at}  session ${e.sessionId}  job ${e.jobId}`, `  ${e.reason}`].join('\n')).join('\n') : `no quarantined deltas in ${scopeKey}`,
        );
        return 0;
      }
      const limit = numberFlag(ctx.args, 'limit');
      const { listLearningJobs } = await import('../../client/jobs');
      // Temporal only: during an S3 outage the list shows the jobs waiting for storage.
      return withServices(
        ctx,
        async ({ temporal, store }) => {
          const jobs = await listLearningJobs({ client: temporal.client, store }, scopeKey, { limit });
          ctx.out(jobs, () => (jobs.length ? jobs.map(formatJobLine).join('\n') : `no learning jobs in ${scopeKey}`));
          return 0;
        },
        ['temporal'],
      );
    },
  },
  job: {
    arguments: [
      { name: 'JOB_ID', description: 'the job to show, or `retry` followed by a failed job to re-run' },
      { name: 'RETRY_JOB_ID', description: 'with `retry`: the failed job to re-run from its first step', optional: true },
    ],
    summary: 'one learning job: its workflow status and outcome (revisions, dropped candidates, quarantine reasons); `job retry JOB_ID` re-runs a failed job',
    run: async (ctx) => {
      if (ctx.args.positionals[0] === 'retry') {
        const failedJobId = positional(ctx.args, 1, 'JOB_ID');
        const { retryLearningJob } = await import('../../client/job-retry');
        return withServices(
          ctx,
          async ({ temporal }) => {
            const retried = await retryLearningJob({ client: temporal.client }, failedJobId);
            ctx.out(retried, () => `${retried.jobId}: re-running from its first step (run ${retried.runId}; the failed run ${retried.previousRunId} stays in history)`);
            return 0;
          },
          ['temporal'],
        );
      }
      const jobId = positional(ctx.args, 0, 'JOB_ID');
      const { showLearningJob } = await import('../../client/jobs');
      return withServices(
        ctx,
        async ({ temporal, store }) => {
          const job = await showLearningJob({ client: temporal.client, store }, jobId);
          ctx.out(job, () =>
            [
              `${job.jobId}: workflow ${job.workflowStatus ?? 'no longer in Temporal'}${job.startedAt ? `, started ${job.startedAt}` : ''}${job.closedAt ? `, closed ${job.closedAt}` : ''}`,
              ...(job.failedBecause ? jobFailureLines(job.failedBecause) : job.failure ? [`  failed: ${job.failure}`] : []),
              ...(job.waiting ? [`  ${waitingLine(job.waiting)}`] : []),
              ...(job.outcome ? [formatOutcome(job.outcome)] : []),
            ].join('\n'),
          );
          return 0;
        },
        ['temporal'],
      );
    },
  },
};

function formatOutcome(outcome: JobOutcome): string {
  return [
    `job ${outcome.jobId}: ${outcome.status} — ${outcome.reason}`,
    `  delta ${outcome.deltaEvents} events, cursor ${outcome.cursorAdvanced ? 'advanced' : 'NOT advanced'}`,
    ...outcome.revisions.map(
      (r) => `  ${r.revisionId}  ${r.action} ${r.name}: ${r.status}${r.shadowBypassed ? ' (shadow)' : ''}${r.reasons.length ? `\n      ${r.reasons.join('\n      ')}` : ''}`,
    ),
    ...outcome.dropped.map((d) => `  dropped ${d.list} "${d.name}": ${d.reason}`),
    ...(outcome.quarantinedAfter ?? []).map((f) => `  failed review in ${f.jobId} at ${f.at}: ${f.reason}`),
  ].join('\n');
}

/** A running job that waits out an outage: "waiting for storage since …" and the step's last failure (client/jobs jobWaitLine, the console's words; not imported, so the CLI loads no library module before a command runs). */
function waitingLine(w: NonNullable<JobView['waiting']>): string {
  return `waiting for ${w.on} since ${w.since} (${w.step}, attempt ${w.attempt}: ${w.lastFailure})`;
}

function formatJobLine(job: JobView): string {
  const status = (job.workflowStatus ?? '').toLowerCase();
  const what = job.outcome
    ? `${job.outcome.status} — ${job.outcome.reason}`
    : job.waiting
      ? `${status}, ${waitingLine(job.waiting)}`
      : job.failedBecause
        ? jobFailureSummary(job.failedBecause)
        : status;
  return `${job.startedAt ?? ''}  ${job.jobId}\n    ${what}`;
}
