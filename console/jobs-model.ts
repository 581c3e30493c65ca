/**
 * The console's learning jobs: the same client calls as `evolution jobs`, `job` and
 * `job retry` (client/jobs.ts, client/job-retry.ts), cut to the signed-in user's scopes.
 */
import { parseLearningJobWorkflowId } from '../core/workflow-ids';
import { InputError, NotFoundError } from '../core/errors';
import { listLearningJobs, type JobView } from '../client/jobs';
import { retryLearningJob, RERUNNABLE_STATES, type RetriedLearningJob } from '../client/job-retry';
import { ForbiddenError } from './errors';
import type { ConsoleDeps } from './read-model';
import { canAct, canSee, type ConsoleUser } from './users';

export interface ScopeJobs {
  scopeKey: string;
  jobs: JobView[];
}

/** A job the console offers to re-run: one that ended without completing (failed, timed out, terminated, cancelled). */
export const isRerunnable = (job: JobView): boolean => job.workflowStatus !== undefined && RERUNNABLE_STATES.has(job.workflowStatus);

/** A scope's most recent learning jobs, for a user who can see the scope (else "not found"). */
export async function jobsFor(deps: ConsoleDeps, user: ConsoleUser, scopeKey: string, opts: { limit?: number } = {}): Promise<ScopeJobs> {
  if (!canSee(user, scopeKey)) throw new NotFoundError(`no scope ${scopeKey}`);
  return { scopeKey, jobs: await listLearningJobs(deps, scopeKey, opts) };
}

/** Re-runs a failed job of the user's scopes under their name: approvers and admins only. */
export async function retryJobFor(deps: ConsoleDeps, user: ConsoleUser, jobId: string): Promise<RetriedLearningJob> {
  const parsed = parseLearningJobWorkflowId(jobId);
  if (!parsed) throw new InputError(`not a learning job id: ${JSON.stringify(jobId)} (expected learning/{scopeKey}/{sessionId}/{segmentId})`);
  if (!canSee(user, parsed.scopeKey)) throw new NotFoundError(`no learning job ${jobId}`);
  if (!canAct(user)) throw new ForbiddenError(`${user.name} is a ${user.role}: viewers cannot re-run jobs`);
  return retryLearningJob(deps, jobId, { requestedBy: user.name });
}
