import { WorkflowFailedError, WorkflowNotFoundError, type Client, type WorkflowExecutionStatusName } from '@temporalio/client';
import type { SkillStore, StoredJobOutcome } from '../storage';
import { parseLearningJobWorkflowId } from '../core/workflow-ids';
import type { JobOutcome, SessionAuditEvent } from '../core/governance';
import { InputError, NotFoundError } from '../core/errors';
import { scopeQuery } from '../core/search-attributes';
import { rootCauseOf, type RootCause } from '../core/failure-message';

export interface JobView {
  jobId: string;
  /** Temporal's view of the job workflow; undefined once its history is past retention. */
  workflowStatus?: WorkflowExecutionStatusName;
  startedAt?: string;
  closedAt?: string;
  /** What the job did (completed jobs). */
  outcome?: JobOutcome;
  /** Why the workflow failed (a malformed segment, an exhausted retry), when it did: its root cause's message. */
  failure?: string;
  /** The root cause of a failed job (the last failure of the failing step) and whether its review cursor moved. */
  failedBecause?: JobFailure;
  /** A running job whose step keeps failing (storage down): what it waits for, since when, and the last failure. */
  waiting?: JobWait;
}

export interface JobWait {
  /** `storage` for every step but the reviewer's model call (`model`). */
  on: 'storage' | 'model';
  /** The step (activity) that is being retried. */
  step: string;
  /** When the step was first scheduled: its attempts have been failing since about then. */
  since: string;
  attempt: number;
  lastFailure: string;
}

/** The root cause of a failed job, and whether the job moved the session's review cursor before it failed. */
export interface JobFailure extends RootCause {
  /** True when a cursor step (advanceCursor, advanceCursorAndPlan) completed: the delta is consumed, the decision is stored. */
  cursorMoved: boolean;
  /** Attempts of the failing step. */
  attempts?: number;
}

/** The steps that advance the review cursor (task-queue activities: their completion is in the job's history). */
const CURSOR_STEPS = new Set(['advanceCursor', 'advanceCursorAndPlan']);

/**
 * Root cause and cursor of a failed job, derived from what Temporal keeps (nothing stored
 * twice): the failure chain of its result, and its history's steps.
 */
export async function jobFailure(client: Client, jobId: string): Promise<JobFailure | undefined> {
  const handle = client.workflow.getHandle(jobId);
  let cause: RootCause | undefined;
  try {
    await handle.result();
  } catch (e) {
    cause = rootCauseOf(e instanceof WorkflowFailedError ? (e.cause ?? e) : e);
  }
  if (!cause) return undefined;
  const typeOf = new Map<string, string>(); // scheduled event id → activity type
  const attemptsOf = new Map<string, number>();
  let cursorMoved = false;
  let lastAttempt: { error: string; type?: string } | undefined;
  for (const e of (await handle.fetchHistory()).events ?? []) {
    const id = String(e.eventId);
    if (e.activityTaskScheduledEventAttributes) typeOf.set(id, e.activityTaskScheduledEventAttributes.activityType?.name ?? '');
    const started = e.activityTaskStartedEventAttributes;
    if (started) attemptsOf.set(String(started.scheduledEventId), started.attempt ?? 1);
    // A step that ran out of time carries its last attempt's failure as the timeout's cause.
    const ended = e.activityTaskTimedOutEventAttributes ?? e.activityTaskFailedEventAttributes;
    for (let f = ended?.failure, depth = 0; f && depth < 6; f = f.cause, depth++)
      if (f.message && !f.timeoutFailureInfo) lastAttempt = { error: f.message, type: f.applicationFailureInfo?.type ?? undefined };
    const completed = e.activityTaskCompletedEventAttributes;
    if (completed && CURSOR_STEPS.has(typeOf.get(String(completed.scheduledEventId)) ?? '')) cursorMoved = true;
  }
  const failedStep = [...typeOf].reverse().find(([, type]) => type === cause.step);
  const attempts = failedStep ? attemptsOf.get(failedStep[0]) : undefined;
  const innermost = cause.service || !lastAttempt ? cause : { ...cause, ...rootCauseOf({ message: lastAttempt.error, type: lastAttempt.type }), step: cause.step };
  return { ...innermost, cursorMoved, ...(attempts ? { attempts } : {}) };
}

/** The model call's step; every other step of a job is storage (S3, the scope index). */
const MODEL_STEPS = new Set(['reviewSession']);

/**
 * What a running job is waiting out, from its pending activities: a step on its second
 * attempt or later, with the time it was first scheduled (from the job's history, which is
 * short) — e.g. S3 down after the reviewer has answered.
 */
export async function jobWait(client: Client, jobId: string): Promise<JobWait | undefined> {
  const handle = client.workflow.getHandle(jobId);
  const { raw } = await handle.describe();
  const retrying = (raw.pendingActivities ?? []).find((a) => (a.attempt ?? 0) > 1 && a.lastFailure);
  if (!retrying) return undefined;
  const step = retrying.activityType?.name ?? 'unknown';
  let since: string | undefined;
  for (const e of (await handle.fetchHistory()).events ?? []) {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled?.activityId === retrying.activityId && e.eventTime?.seconds) since = new Date(Number(e.eventTime.seconds) * 1000).toISOString();
  }
  const lastFailure = retrying.lastFailure?.cause?.message ?? retrying.lastFailure?.message ?? '';
  return {
    on: MODEL_STEPS.has(step) ? 'model' : 'storage',
    step,
    since: since ?? new Date(Number(retrying.scheduledTime?.seconds ?? 0) * 1000).toISOString(),
    attempt: retrying.attempt ?? 0,
    lastFailure,
  };
}

/** "waiting for storage since … (step, attempt N: last failure)": the CLI's and the console's words for a waiting job. */
export function jobWaitLine(w: JobWait): string {
  return `waiting for ${w.on} since ${w.since} (${w.step}, attempt ${w.attempt}: ${w.lastFailure})`;
}

const DEFAULT_LIMIT = 20;

/**
 * The most recent learning jobs of a scope (one visibility query, core scopeQuery: every
 * job carries its scope and kind as search attributes), each with its stored outcome.
 * Reads at most `limit` outcomes, whatever the number of jobs the scope has seen.
 */
export async function listLearningJobs(deps: { client: Client; store: SkillStore }, scopeKey: string, opts: { limit?: number } = {}): Promise<JobView[]> {
  const limit = opts.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new InputError(`--limit must be an integer from 1 to 1000, got ${opts.limit}`);
  const query = scopeQuery(scopeKey, 'learning-job');
  // Visibility lists runs: a re-run (retryLearningJob, a reset) is a new run under the same job
  // id, beside the failed one. A job is shown once, as its latest run (what a re-run acts on).
  const byJob = new Map<string, JobView>();
  for await (const w of deps.client.workflow.list({ query, pageSize: limit })) {
    const startedAt = w.startTime.toISOString();
    const seen = byJob.get(w.workflowId);
    if (!seen || (seen.startedAt ?? '') < startedAt)
      byJob.set(w.workflowId, { jobId: w.workflowId, workflowStatus: w.status.name, startedAt, closedAt: w.closeTime?.toISOString() });
    if (byJob.size >= limit) break;
  }
  const jobs = [...byJob.values()];
  jobs.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
  await Promise.all(
    jobs.map(async (job) => {
      if (job.workflowStatus === 'RUNNING') {
        const waiting = await jobWait(deps.client, job.jobId).catch(() => undefined);
        if (waiting) job.waiting = waiting;
        return;
      }
      if (job.workflowStatus === 'FAILED' || job.workflowStatus === 'TIMED_OUT') {
        const failed = await jobFailure(deps.client, job.jobId).catch(() => undefined);
        if (failed) {
          job.failure = failed.error;
          job.failedBecause = failed;
        }
        return;
      }
      if (job.workflowStatus !== 'COMPLETED') return;
      // Temporal's result when the stored outcome cannot be read (S3 down): the list still shows every job.
      const stored = await deps.store.readJobOutcome(scopeKey, job.jobId).catch(() => undefined);
      job.outcome =
        stripRecordedAt(stored) ??
        ((await deps.client.workflow
          .getHandle(job.jobId)
          .result()
          .catch(() => undefined)) as JobOutcome | undefined);
    }),
  );
  return jobs;
}

/** One job: Temporal's status and result while its history exists, else its stored outcome. */
export async function showLearningJob(deps: { client: Client; store: SkillStore }, jobId: string): Promise<JobView> {
  const parsed = parseLearningJobWorkflowId(jobId);
  if (!parsed) throw new InputError(`not a learning job id: ${JSON.stringify(jobId)} (expected learning/{scopeKey}/{sessionId}/{segmentId})`);
  const readStored = async () => stripRecordedAt(await deps.store.readJobOutcome(parsed.scopeKey, jobId));
  const handle = deps.client.workflow.getHandle(jobId);
  let description;
  try {
    description = await handle.describe();
  } catch (e) {
    if (!(e instanceof WorkflowNotFoundError)) throw e;
    const stored = await readStored();
    if (!stored) throw new NotFoundError(`no learning job ${jobId} (neither in Temporal nor in the stored outcomes)`);
    return { jobId, outcome: stored };
  }
  const view: JobView = {
    jobId,
    workflowStatus: description.status.name,
    startedAt: description.startTime.toISOString(),
    closedAt: description.closeTime?.toISOString(),
  };
  // A running or failed job has no outcome: its view needs no storage (which may be what it waits for, or why it failed).
  if (view.workflowStatus === 'COMPLETED') {
    const stored = await readStored();
    if (stored) view.outcome = stored;
  }
  if (view.workflowStatus === 'RUNNING') {
    const waiting = await jobWait(deps.client, jobId);
    if (waiting) view.waiting = waiting;
  }
  if (view.workflowStatus === 'COMPLETED' && !view.outcome) view.outcome = (await handle.result()) as JobOutcome;
  if (view.workflowStatus === 'FAILED' || view.workflowStatus === 'TIMED_OUT') {
    const failed = await jobFailure(deps.client, jobId);
    if (failed) {
      view.failure = failed.error;
      view.failedBecause = failed;
    }
  }
  return view;
}

/** The deltas the scope's sessions stepped over after repeated failed reviews (its session-level audit). */
export async function listQuarantines(store: SkillStore, scopeKey: string): Promise<SessionAuditEvent[]> {
  return (await store.listSessionAudit(scopeKey)).filter((e) => e.action === 'quarantine_delta');
}

function stripRecordedAt(stored: StoredJobOutcome | undefined): JobOutcome | undefined {
  if (!stored) return undefined;
  const { recordedAt: _recordedAt, ...outcome } = stored;
  return outcome;
}
