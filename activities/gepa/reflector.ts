import type OpenAI from 'openai';
import { ApplicationFailure } from '@temporalio/activity';
import { buildReflectionMessages, ReflectionAnswerSchema, screenProposal, specFingerprint, type EvolutionConfig } from '../../core';
import type { ModelAnswerRecord } from '../../core/llm';
import { structuredCompletion } from '../llm/structured-call';
import { experimentRecordKey, type SkillStore } from '../../storage';
import { withStoreErrors } from '../errors';
import { recordIds } from '../../core/gepa/ids';
import { fillReflectionAnswer } from '../../core/gepa/reflection-answer-repair';
import type { ReflectInput, ReflectOutput } from '../../core/gepa/experiment-types';
import type { DatasetCache } from './dataset-cache';
import { NON_RETRYABLE } from '../../core/failure-types';
import { rejectionsOfSkill } from '../../core/governance/rejections';
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
    async reflectOnMinibatch(input: ReflectInput): Promise<ReflectOutput> {
      const parentFingerprint = specFingerprint(input.parentSpec);
      // A resumed experiment repeats the iteration it stopped in: the answer it already has is reused, not asked again.
      const stored = await withStoreErrors(() => reader.reflection(input.experimentId, input.iteration));
      const reusable =
        stored !== undefined &&
        stored.parentFingerprint === parentFingerprint &&
        stored.component === input.component &&
        stored.evaluationRecordId === input.evaluationRecordId &&
        stored.modelAnswer !== undefined;
      let answer: unknown;
      let modelAnswer: ModelAnswerRecord;
      if (reusable) {
        answer = stored.answer;
        modelAnswer = stored.modelAnswer!;
      } else {
        const record = await withStoreErrors(() => reader.evaluation(input.experimentId, input.evaluationRecordId));
        if (!record)
          throw ApplicationFailure.nonRetryable(`evaluation record ${input.evaluationRecordId} of experiment ${input.experimentId} does not exist`, NON_RETRYABLE.experimentRecord);
        const cases = await datasets.cases(input.dataset, record.caseIds);
        const messages = buildReflectionMessages({
          spec: input.parentSpec,
          component: input.component,
          records: cases.map((c, i) => ({ case: c, evaluation: record.evaluations[i] })),
          ...(input.skill ? { rejected: rejectionsOfSkill(await withStoreErrors(() => store.readRejections(input.skill!.scopeKey)), input.skill.skillId) } : {}),
        });
        const called = await structuredCompletion({
          client: openai,
          model: config.llm.reflectorModel,
          schemaName: 'reflection',
          schema: ReflectionAnswerSchema,
          prepare: (json) => fillReflectionAnswer(json, input.component),
          messages,
        });
        answer = called.value;
        modelAnswer = called.record;
      }
      const screening = screenProposal({ parentSpec: input.parentSpec, component: input.component, answer, poolFingerprints: new Map(input.poolFingerprints) });
      // Overwritten by a retried attempt, whose answer is then the one the workflow receives.
      await withStoreErrors(() =>
        store.objects.put(experimentRecordKey(input.experimentId, recordIds.reflection(input.iteration)), {
          iteration: input.iteration,
          component: input.component,
          evaluationRecordId: input.evaluationRecordId,
          parentFingerprint,
          answer,
          screening,
          modelAnswer,
        }),
      );
      const usage =
        modelAnswer.promptTokens !== undefined || modelAnswer.completionTokens !== undefined
          ? { promptTokens: modelAnswer.promptTokens ?? 0, completionTokens: modelAnswer.completionTokens ?? 0 }
          : undefined;
      return { ...screening, ...(usage ? { usage } : {}), ...(reusable ? { reused: true } : {}) };
    },
  };
}
