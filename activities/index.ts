import type { EvolutionConfig } from '../core';
import { gepaActivities } from './gepa';
import { learningActivities } from './learning';
import { createOpenAIClient } from './llm/openai-client';
import { publisherActivities } from './publisher';
import { recordActivities } from './record';
import { scopeIndexActivities } from './scope-index';
import { temporalIndexSignaller, type SignalIndex } from './scope-index-signal';
import { createSkillStore, type SkillStore } from './storage';

export interface ActivityDeps {
  config: EvolutionConfig;
  store?: SkillStore;
  /** How publications reach the scope index workflow (default: signal-with-start over a client of this worker's server). */
  signalIndex?: SignalIndex;
}

/** Every application activity, wired to one S3 store and one OpenAI client per worker. */
export function createActivities(config: EvolutionConfig, deps: Partial<ActivityDeps> = {}) {
  const store = deps.store ?? createSkillStore(config.s3);
  const openai = createOpenAIClient(config.llm);
  const signalIndex = deps.signalIndex ?? temporalIndexSignaller(config);
  return {
    ...learningActivities({ config, store, openai }),
    ...recordActivities({ store }),
    ...publisherActivities({ store, signalIndex }),
    ...scopeIndexActivities({ store }),
    ...gepaActivities({ config, store, openai }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
