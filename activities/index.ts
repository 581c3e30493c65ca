import type { EvolutionConfig } from '../core';
import { curationActivities } from './curation';
import { gepaActivities } from './gepa';
import { jobPublicationActivities } from './job-publication';
import { learningActivities } from './learning';
import { createOpenAIClient } from './llm/openai-client';
import { publisherActivities } from './publisher';
import { recordActivities } from './record';
import { scopeIndexActivities } from './scope-index';
import type { SignalIndex } from './scope-index-signal';
import { usageActivities, type RecordUsage } from './usage';
import { createSkillStore, type SkillStore } from '../storage';

export interface ActivityDeps {
  /** How publications reach the scope index workflow (the worker's: update-with-start over its own connection). */
  signalIndex: SignalIndex;
  /** How each job's usage (which skills its session loaded, and its outcome) reaches the scope's usage workflow; none: no attribution. */
  recordUsage?: RecordUsage;
  store?: SkillStore;
}

/** Every application activity, wired to one S3 store and one OpenAI client per worker. */
export function createActivities(config: EvolutionConfig, { signalIndex, recordUsage, store = createSkillStore(config.s3) }: ActivityDeps) {
  const openai = createOpenAIClient(config.llm);
  const record = recordActivities({ store });
  const publisher = publisherActivities({ store, signalIndex });
  return {
    ...learningActivities({ config, store, openai, recordUsage }),
    ...record,
    ...publisher,
    ...jobPublicationActivities({ store, recordRevision: record.recordRevision, publishRevision: publisher.publishRevision }),
    ...scopeIndexActivities({ store }),
    ...usageActivities({ store }),
    ...gepaActivities({ config, store, openai }),
    ...curationActivities({ config, store, openai, recordRevision: record.recordRevision, publishRevision: publisher.publishRevision }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
