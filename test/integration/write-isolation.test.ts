import { describe, expect, it } from 'vitest';
import { importUnmanagedSkill } from '../../client/import-skill';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { SkillRepository } from '../../client/skill-repository';
import { renderSkillMarkdown } from '../../core';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

const fx = useMainWorker({ humanGate: 'none' });

describe('write isolation', () => {
  it('an unmanaged (hand-written) skill is visible for dedup but never updated', async () => {
    const app = uniqueName('iso');
    const handWritten = renderSkillMarkdown({
      name: 'multi-city-weather-report',
      description: 'Our hand-written weather playbook.',
      when_to_use: 'Weather for several cities.',
      steps: ['Look up each city.', 'Fetch the forecast.'],
      pitfalls: [],
    });
    const imported = await importUnmanagedSkill(fx.w, { mode: 'app', app }, handWritten);
    const before = await fx.store.readActive(imported.scopeKey, imported.skillId);

    const started = await startLearningJob(
      { client: fx.w.client, store: fx.store, config: fx.w.config },
      { app, user: 'u', sessionId: 's', events: exampleSession('weather-report') },
    );
    const outcome = await waitForLearningJob(fx.w, started.jobWorkflowId);

    expect(outcome.status).toBe('reviewed');
    expect(outcome.revisions).toEqual([]);
    expect(outcome.dropped).toHaveLength(1);
    expect(outcome.dropped[0]).toMatchObject({ name: 'multi-city-weather-report' });
    expect(outcome.dropped[0]!.reason).toMatch(/outside the managed area/);
    const after = await fx.store.readActive(imported.scopeKey, imported.skillId);
    expect(after?.etag).toBe(before?.etag);
    expect(after?.pointer).toMatchObject({ managed: false, revisionId: imported.revisionId });
    const loaded = await new SkillRepository(fx.store, { mode: 'app', app }).load('multi-city-weather-report');
    expect(loaded.markdown).toBe(handWritten);
  });
});
