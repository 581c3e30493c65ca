import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { InputError, NotFoundError, StateError } from '../core/errors';
import { parseLearningJobWorkflowId } from '../core/workflow-ids';

/** Job workflow states a re-run starts from; a running or completed job has nothing to re-run. */
export const RERUNNABLE_STATES: ReadonlySet<string> = new Set(['FAILED', 'TIMED_OUT', 'TERMINATED', 'CANCELLED']);

export interface RetriedLearningJob {
  jobId: string;
  /** The failed run, kept in Temporal's history. */
  previousRunId: string;
  /** The new run of the same job id, from its first step. */
  runId: string;
}

/** How a failed job is re-run (the CLI's wording, also in the error for a segment submitted again). */
export const retryHint = (jobId: string): string => `re-run it with \`evolution job retry ${jobId}\``;

/**
 * Re-runs a failed learning job: a Temporal reset of the job to its first workflow task, so
 * the same job id runs again from the start with the same input (the segment), in a new run
 * beside the failed one. Every write of a job is idempotent (operation ids from the job id,
 * create-only revisions, a conditional cursor write), so what the failed run stored is found,
 * not duplicated; a cursor it advanced makes the new run review only what follows.
 * `requestedBy` (the console's signed-in user) goes into the reset's reason.
 */
export async function retryLearningJob(deps: { client: Client }, jobId: string, opts: { requestedBy?: string } = {}): Promise<RetriedLearningJob> {
  if (!parseLearningJobWorkflowId(jobId)) throw new InputError(`not a learning job id: ${JSON.stringify(jobId)} (expected learning/{scopeKey}/{sessionId}/{segmentId})`);
  const handle = deps.client.workflow.getHandle(jobId);
  let description;
  try {
    description = await handle.describe();
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) throw new NotFoundError(`no learning job ${jobId} in Temporal (past retention, or never started)`);
    throw e;
  }
  const status = description.status.name;
  if (!RERUNNABLE_STATES.has(status)) throw new StateError(`learning job ${jobId} is ${status.toLowerCase()}: only a failed job can be re-run`);
  const history = await handle.fetchHistory();
  const firstTask = (history.events ?? []).find((e) => e.workflowTaskCompletedEventAttributes);
  if (!firstTask?.eventId) throw new StateError(`learning job ${jobId} failed before its first step: submit its segment again`);
  const { runId } = await deps.client.workflowService.resetWorkflowExecution({
    namespace: deps.client.options.namespace,
    workflowExecution: { workflowId: jobId, runId: description.runId },
    workflowTaskFinishEventId: firstTask.eventId,
    // Who asked is kept in the job's history, beside the reset.
    reason: opts.requestedBy ? `evolution job retry by ${opts.requestedBy}` : 'evolution job retry',
    requestId: `retry-${description.runId}`,
  });
  return { jobId, previousRunId: description.runId, runId: runId ?? '' };
}

/**
 * The job of a segment that is submitted again: a failed one is named instead of the
 * submission being accepted and ignored (the session dedupes segments it has seen).
 */
export async function failedJobOfSegment(client: Client, jobId: string): Promise<string | undefined> {
  try {
    const d = await client.workflow.getHandle(jobId).describe();
    return RERUNNABLE_STATES.has(d.status.name) ? d.status.name.toLowerCase() : undefined;
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return undefined;
    throw e;
  }
}
