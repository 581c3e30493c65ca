import type { EvolutionConfig } from '../core';
import { curationActivities } from './curation';
import { gepaActivities } from './gepa';
import { jobPublicationActivities } from './job-publication';
import { learningActivities } from './learning';
import { createOpenAIClient } from './llm/openai-client';
import { publisherActivities, revisionPublisher } from './publisher';
import { recordActivities } from './record';
import { rolloutActivities } from './rollout';
import type { StartRollout } from './rollout-start';
import { scopeIndexActivities } from './scope-index';
import type { SignalIndex, SignalRejections } from './scope-index-signal';
import { scopeRecording, usageActivities, type RecordScope } from './usage';
import { createSkillStore, type SkillStore } from '../storage';

export interface ActivityDeps {
  /** How publications reach the scope index workflow (the worker's: update-with-start over its own connection). */
  signalIndex: SignalIndex;
  /** How a rejection's new version of the scope's rejections reaches the scope index workflow (signal-with-start). */
  signalRejections: SignalRejections;
  /**
   * How each activity's records (a job's usage: which skills its session loaded and its
   * outcome; the governance counters its writes add; its audit entries) reach the scope's
   * usage workflow; none: no usage attribution and no derived counters.
   */
  recordScope?: RecordScope;
  store?: SkillStore;
  /** How a canary publication starts its rollout workflow (the worker's client); none: every revision publishes as without EVOLUTION_CANARY. */
  startRollout?: StartRollout;
}

/** Every application activity, wired to one S3 store and one OpenAI client per worker. */
export function createActivities(
  config: EvolutionConfig,
  { signalIndex, signalRejections, recordScope, startRollout, store: plainStore = createSkillStore(config.s3) }: ActivityDeps,
) {
  const openai = createOpenAIClient(config.llm);
  const recording = recordScope ? scopeRecording(recordScope) : undefined;
  const store = recording ? recording.recordingStore(plainStore) : plainStore;
  const noteSession = recording?.noteSession;
  const record = recordActivities({ store, noteSession });
  const canarySettings = config.governance.canary;
  const canary =
    canarySettings && canarySettings.policy !== 'none' && startRollout
      ? { ...canarySettings, startRollout, storageOutageToleranceMs: config.runtime.storageOutageToleranceMs }
      : undefined;
  const revisions = revisionPublisher({ store, signalIndex, ...(canary ? { canary } : {}) });
  const publisher = publisherActivities({ store, revisions, signalRejections });
  const activities = {
    ...learningActivities({ config, store, openai, noteSession }),
    ...record,
    ...publisher,
    ...jobPublicationActivities({
      store,
      recordRevision: record.recordRevision,
      publishPointer: revisions.publishPointer,
      noteSession,
      ...(recording ? { sendCollected: recording.sendCollected } : {}),
    }),
    ...scopeIndexActivities({ store }),
    ...rolloutActivities({ store, signalIndex, signalRejections }),
    ...usageActivities({ store }),
    ...gepaActivities({ config, store, openai }),
    ...curationActivities({ config, store, openai, recordRevision: record.recordRevision, publishRevision: publisher.publishRevision }),
  };
  if (!recording) return activities;
  // Every activity sends what its writes add to the scopes' derived objects when it ends.
  for (const name of Object.keys(activities) as (keyof typeof activities)[])
    (activities as Record<string, unknown>)[name] = recording.within(activities[name] as (...args: unknown[]) => Promise<unknown>);
  return activities;
}

export type Activities = ReturnType<typeof createActivities>;
