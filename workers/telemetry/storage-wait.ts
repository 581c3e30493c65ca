import type { MetricMeter } from '@temporalio/common';

/** The gauge: workflows whose storage step is failing on this worker (S3 or the index down). */
export const STORAGE_WAIT_GAUGE = 'evolution_work_waiting_for_storage';

/** Steps that are not storage (a model call, the application's evaluator): their failures are not a storage wait. */
const NOT_STORAGE = new Set(['reviewSession', 'reflectOnCandidate', 'evaluateCandidate', 'evaluateBatch', 'describeEvaluator']);

/**
 * Forget a workflow this long after its last failed storage attempt here: its next attempt
 * may run on another worker (retries are 30 s apart at most).
 */
const FORGET_AFTER_MS = 90_000;

/**
 * Which workflows wait for storage, as this worker sees it: a storage step's attempt failed
 * (a retryable failure) and none of the workflow's steps has succeeded here since. Read as
 * the gauge {@link STORAGE_WAIT_GAUGE}; summed over workers, the jobs, approvals and
 * rollbacks that wait out an outage.
 */
export class StorageWaits {
  private readonly failingSince = new Map<string, number>();

  observe(activityType: string, workflowId: string | undefined, error: unknown, now = Date.now()): void {
    if (!workflowId || NOT_STORAGE.has(activityType)) return;
    if (error === undefined) this.failingSince.delete(workflowId);
    else if (!isNonRetryable(error)) this.failingSince.set(workflowId, now);
  }

  count(now = Date.now()): number {
    for (const [id, at] of this.failingSince) if (now - at > FORGET_AFTER_MS) this.failingSince.delete(id);
    return this.failingSince.size;
  }

  emit(meter: MetricMeter): void {
    meter.createGauge(STORAGE_WAIT_GAUGE, 'int', 'workflows', 'workflows whose storage step is failing on this worker').set(this.count());
  }
}

function isNonRetryable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { nonRetryable?: unknown }).nonRetryable === true;
}
