import { ActivityCancellationType, isCancellation, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { EvaluatorActivities } from '../activities/gepa/evaluator-contract';
import { chunk, mapLimit } from '../core/concurrency';
import { failureMessage } from '../core/failure-message';
import { ACTIVITY_NOT_REGISTERED } from '../core/gepa/evaluator-contract';
import {
  describedVersions,
  sameVersions,
  type CertificationCheck,
  type CertifiedRevision,
  type CertifiedVersions,
  type RecertificationInput,
  type RecertificationResult,
  type RecertificationVerdict,
} from '../core/gepa/recertification';

export type { RecertificationInput, RecertificationResult };
import { evaluatorRetry, storageRetry } from './retry-policies';

const storage = proxyActivities<Activities>({ startToCloseTimeout: '10 minutes', heartbeatTimeout: '1 minute', retry: storageRetry });

function evaluatorOn(taskQueue: string) {
  return {
    describe: proxyActivities<EvaluatorActivities>({
      taskQueue,
      startToCloseTimeout: '30 seconds',
      scheduleToCloseTimeout: '2 minutes',
      retry: { initialInterval: '1 second', maximumAttempts: 3, nonRetryableErrorTypes: [ACTIVITY_NOT_REGISTERED] },
    }).describeEvaluator,
    evaluate: proxyActivities<EvaluatorActivities>({
      taskQueue,
      startToCloseTimeout: '10 minutes',
      heartbeatTimeout: '1 minute',
      retry: evaluatorRetry,
      cancellationType: ActivityCancellationType.TRY_CANCEL,
    }).evaluateCandidate,
  };
}

/**
 * Re-certification (run by a Temporal Schedule): every active optimized revision whose
 * evaluator now reports other versions than its evidence was certified with gets its
 * Holdout re-run (itself and its parent, certified seed, on the evaluator's task queue) and
 * a stored verdict: recertified, stale, or regressed with a rollback proposed
 * (core/gepa/recertification). Revisions whose evaluator is unchanged cost one describe
 * call per task queue.
 */
export async function recertificationWorkflow(input: RecertificationInput = {}): Promise<RecertificationResult> {
  const chunkSize = input.chunkSize ?? 5;
  const concurrency = input.concurrency ?? 4;
  const revisions = await storage.listCertifiedRevisions(input.scopeKeys ? { scopeKeys: input.scopeKeys } : {});
  const described = new Map<string, Promise<CertifiedVersions | undefined>>();
  const describe = (taskQueue: string) => {
    if (!described.has(taskQueue)) described.set(taskQueue, describeOn(taskQueue));
    return described.get(taskQueue)!;
  };
  const verdicts: Record<RecertificationVerdict, number> = { current: 0, recertified: 0, stale: 0, regressed: 0 };
  const checks: CertificationCheck[] = [];
  // Every evaluator is asked at once: one that no longer polls costs its timeout once, not once per revision.
  await Promise.all([...new Set(revisions.map((r) => r.evaluatorTaskQueue))].map(describe));
  for (const revision of revisions) {
    const current = await describe(revision.evaluatorTaskQueue);
    if (current && sameVersions(revision.certified, current)) {
      verdicts.current++;
      continue;
    }
    const check = await recheck(revision, current, chunkSize, concurrency);
    verdicts[check.verdict]++;
    checks.push(check);
  }
  return { checked: revisions.length, verdicts, checks };
}

async function describeOn(taskQueue: string): Promise<CertifiedVersions | undefined> {
  try {
    return describedVersions(await evaluatorOn(taskQueue).describe());
  } catch (e) {
    if (isCancellation(e)) throw e;
    log.warn('the evaluator did not describe its versions', { taskQueue, error: failureMessage(e) });
    return undefined;
  }
}

async function recheck(revision: CertifiedRevision, current: CertifiedVersions | undefined, chunkSize: number, concurrency: number): Promise<CertificationCheck> {
  const checkedAt = new Date().toISOString();
  if (!current) {
    return storage.recordCertificationCheck({ revision, checkedAt, stale: `the evaluator on ${revision.evaluatorTaskQueue} no longer reports its versions (describeEvaluator)` });
  }
  const holdout = await storage.loadHoldoutToRerun(revision);
  if (!holdout.ready) return storage.recordCertificationCheck({ revision, current, checkedAt, stale: holdout.reason });
  const { evaluate } = evaluatorOn(revision.evaluatorTaskQueue);
  const run = async (spec: typeof holdout.candidate, candidateId: string) =>
    (
      await mapLimit(chunk(holdout.cases, chunkSize), concurrency, (cases) =>
        evaluate({ experimentId: `recertify-${revision.revisionId}`, candidateId, spec, cases, seed: revision.holdoutSeed }),
      )
    ).flat();
  try {
    const [baseline, candidate] = await Promise.all([run(holdout.baseline, revision.parentRevisionId!), run(holdout.candidate, revision.revisionId)]);
    return storage.recordCertificationCheck({ revision, current, checkedAt, rerun: { caseIds: holdout.cases.map((c) => c.id), baseline, candidate } });
  } catch (e) {
    if (isCancellation(e)) throw e;
    return storage.recordCertificationCheck({ revision, current, checkedAt, stale: `the Holdout re-run failed: ${failureMessage(e)}` });
  }
}
