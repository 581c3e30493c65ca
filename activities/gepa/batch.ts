import { ApplicationFailure } from '@temporalio/activity';
import { summarizeBatch, type Case, type DatasetRef, type Evaluation, type EvaluatorIdentity } from '../../core';
import type { EvaluationBatchResult } from '../../core/gepa/experiment-types';
import type { SkillStore } from '../../storage';
import { withStoreErrors } from '../errors';
import type { DatasetCache } from './dataset-cache';
import { evaluationCache } from './evaluation-cache';
import { NON_RETRYABLE } from '../../core/failure-types';
import { experimentReader } from '../../storage/experiment-records';

export interface PrepareBatchInput {
  experimentId: string;
  recordId: string;
  dataset: DatasetRef;
  caseIds: string[];
  candidateId: string;
  seed: number;
  hitsSpendBudget: boolean;
  /** Look the cases up in the evaluation cache under this evaluator (absent: no cache). */
  evaluator?: EvaluatorIdentity;
}

/** Either the batch's finished record (nothing to run), or what the evaluator still has to run and the cached rest. */
export type PreparedBatch = { recorded: EvaluationBatchResult } | { recorded?: undefined; cases: Case[]; hits: Evaluation[] };

/**
 * The first step of an evaluation batch of an experiment on this version (a local
 * activity): a batch whose record already exists was finished by an earlier run of the
 * experiment (it is being resumed) and is returned from the record, charged as it was;
 * otherwise the cases are loaded and those the cache answers are set apart.
 */
export function batchActivities({ store, datasets }: { store: SkillStore; datasets: DatasetCache }) {
  const reader = experimentReader(store);
  const cache = evaluationCache(store.objects);
  return {
    async prepareEvaluationBatch(input: PrepareBatchInput): Promise<PreparedBatch> {
      // The record, the cases and the cache are read at once: a batch's first step is on the
      // experiment's critical path. A finished record wins whatever the other reads answer.
      const loading = datasets.cases(input.dataset, input.caseIds);
      const looking = input.evaluator ? loading.then((cases) => withStoreErrors(() => cache.lookup(input.evaluator!, input.candidateId, input.seed, cases))) : undefined;
      loading.catch(() => undefined);
      looking?.catch(() => undefined);
      const record = await withStoreErrors(() => reader.evaluation(input.experimentId, input.recordId));
      if (record) {
        const same = record.candidateId === input.candidateId && record.seed === input.seed && record.caseIds.join('\u0000') === input.caseIds.join('\u0000');
        if (!same) {
          throw ApplicationFailure.nonRetryable(
            `evaluation record ${input.recordId} of experiment ${input.experimentId} holds candidate ${record.candidateId} under seed ${record.seed}, not ${input.candidateId} under ${input.seed}`,
            NON_RETRYABLE.experimentRecord,
          );
        }
        return {
          recorded: summarizeBatch({
            recordId: input.recordId,
            caseIds: record.caseIds,
            evaluations: record.evaluations,
            hitCaseIds: record.cacheHits ?? [],
            charged: record.charged ?? record.caseIds.length,
            hitsSpendBudget: input.hitsSpendBudget,
            evaluator: record.evaluator,
            reused: true,
          }),
        };
      }
      const cases = await loading;
      if (!looking) return { cases, hits: [] };
      const { hits } = await looking;
      return { cases: cases.filter((c) => !hits.has(c.id)), hits: [...hits.values()] };
    },
  };
}
