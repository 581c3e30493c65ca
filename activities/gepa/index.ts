import type OpenAI from 'openai';
import type { EvolutionConfig } from '../../core';
import type { SkillStore } from '../../storage';
import { batchActivities } from './batch';
import { datasetCache } from './dataset-cache';
import { prepareActivities } from './prepare';
import { recertificationActivities } from './recertification';
import { recordActivities } from './records';
import { reflectorActivities } from './reflector';
import { submissionActivities } from './submission';

/**
 * The GEPA experiment's activities on the main task queue. The evaluator is NOT here: it
 * is the application's activity on its own task queue (docs/evaluator-contract.md).
 */
export function gepaActivities({ config, store, openai }: { config: EvolutionConfig; store: SkillStore; openai: OpenAI }) {
  const datasets = datasetCache(store);
  return {
    ...prepareActivities({ config, store, datasets }),
    ...batchActivities({ store, datasets }),
    ...recordActivities({ store, datasets }),
    ...reflectorActivities({ config, store, openai, datasets }),
    ...submissionActivities({ store }),
    ...recertificationActivities({ store }),
  };
}
