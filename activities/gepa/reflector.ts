import type OpenAI from 'openai';
import { ApplicationFailure } from '@temporalio/activity';
import { buildReflectionMessages, ReflectionAnswerSchema, screenProposal, type EvolutionConfig, type ProposalScreening } from '../../core';
import { structuredCompletion } from '../llm/structured-call';
import { experimentRecordKey, type SkillStore } from '../../storage';
import { withStoreErrors } from '../errors';
import { recordIds } from '../../core/gepa/ids';
import { fillReflectionAnswer } from '../../core/gepa/reflection-answer-repair';
import type { ReflectInput } from '../../core/gepa/experiment-types';
import type { DatasetCache } from './dataset-cache';
import { GEPA_NON_RETRYABLE } from './failures';
import { experimentReader } from '../../storage/experiment-records';

/**
 * The reflector: shows the model the parent skill, the ONE component it may rewrite and
 * the parent's Feedback-minibatch records (bounded, redacted; cases from the frozen
 * dataset, evaluations from the experiment record), then applies only that field with
 * core's screening (invalid answer, no change and duplicates are outcomes, not errors).
 * A malformed answer fails the attempt (MalformedModelAnswer) and Temporal retries it.
 */
export function reflectorActivities({ config, store, openai, datasets }: { config: EvolutionConfig; store: SkillStore; openai: OpenAI; datasets: DatasetCache }) {
  const reader = experimentReader(store);
  return {
    async reflectOnMinibatch(input: ReflectInput): Promise<ProposalScreening> {
      const record = await withStoreErrors(() => reader.evaluation(input.experimentId, input.evaluationRecordId));
      if (!record)
        throw ApplicationFailure.nonRetryable(`evaluation record ${input.evaluationRecordId} of experiment ${input.experimentId} does not exist`, GEPA_NON_RETRYABLE.record);
      const cases = await datasets.cases(input.dataset, record.caseIds);
      const messages = buildReflectionMessages({
        spec: input.parentSpec,
        component: input.component,
        records: cases.map((c, i) => ({ case: c, evaluation: record.evaluations[i] })),
      });
      const { value: answer, record: modelAnswer } = await structuredCompletion({
        client: openai,
        model: config.llm.reflectorModel,
        schemaName: 'reflection',
        schema: ReflectionAnswerSchema,
        prepare: (json) => fillReflectionAnswer(json, input.component),
        messages,
      });
      const screening = screenProposal({ parentSpec: input.parentSpec, component: input.component, answer, poolFingerprints: new Map(input.poolFingerprints) });
      // Overwritten by a retried attempt, whose answer is then the one the workflow receives.
      await withStoreErrors(() =>
        store.objects.put(experimentRecordKey(input.experimentId, recordIds.reflection(input.iteration)), {
          iteration: input.iteration,
          component: input.component,
          evaluationRecordId: input.evaluationRecordId,
          answer,
          screening,
          modelAnswer,
        }),
      );
      return screening;
    },
  };
}
