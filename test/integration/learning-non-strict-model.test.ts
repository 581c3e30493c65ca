/**
 * A reviewer on a non-strict model (the local stand-in's non-strict style: refuses
 * json_schema, answers fenced JSON in prose with trailing commas and without optional
 * keys, updates with nameless new_specs) publishes the same skills as on a strict one,
 * and each job records how its answer was repaired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { isLivePointer, type SkillSpec } from '../../core';
import type { JobOutcome } from '../../core/governance';
import { startMainWorker, type RunningWorker } from '../../workers/in-process';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

const strict = useMainWorker({ humanGate: 'none' });
let nonStrict: RunningWorker;
beforeAll(async () => {
  nonStrict = await startMainWorker({ ...strict.config, llm: { ...strict.config.llm, reviewerModel: 'evolution-local-reviewer-nonstrict' } });
});
afterAll(async () => nonStrict?.stop());

const SKILL = 'multi-city-weather-report';

/** The weather session, then its follow-up (a create, then an update), in a new app. */
async function learn(w: RunningWorker): Promise<{ outcomes: JobOutcome[]; spec: SkillSpec }> {
  const app = uniqueName('strictness');
  const deps = { client: w.client, store: w.store, config: w.config };
  const outcomes: JobOutcome[] = [];
  for (const events of [exampleSession('weather-report'), exampleSession('weather-report-followup')]) {
    const started = await startLearningJob(deps, { app, user: 'u', sessionId: 's1', events });
    outcomes.push(await waitForLearningJob(w, started.jobWorkflowId, { timeoutMs: 60_000 }));
  }
  const pointer = (await w.store.readActive(outcomes[0]!.scopeKey, SKILL))?.pointer;
  if (!isLivePointer(pointer)) throw new Error(`${SKILL} is not published in ${outcomes[0]!.scopeKey}`);
  return { outcomes, spec: pointer.spec };
}

describe('a reviewer on a non-strict model', () => {
  it('publishes the same skill (create, then update) as on a strict model; each outcome records the format and every repair', async () => {
    const [a, b] = await Promise.all([learn(strict.w), learn(nonStrict)]);
    for (const { outcomes } of [a, b]) {
      expect(outcomes.map((o) => o.revisions.map((r) => [r.action, r.status, r.name]))).toEqual([[['create', 'active', SKILL]], [['update', 'active', SKILL]]]);
    }
    expect(b.spec).toEqual(a.spec);

    for (const o of a.outcomes) expect(o.reviewerAnswer).toMatchObject({ format: 'json_schema', repairs: [] });
    const [created, updated] = b.outcomes.map((o) => o.reviewerAnswer!);
    expect(created.format).toBe('json_object');
    expect(created.repairs).toEqual([
      { kind: 'format_json_object' },
      { kind: 'code_fence' },
      { kind: 'prose_around_json' },
      { kind: 'trailing_comma' },
      { kind: 'missing_optional_key', path: 'skip_reason' },
      { kind: 'missing_optional_key', path: 'updates' },
      { kind: 'missing_optional_key', path: 'deletions' },
    ]);
    expect(updated.repairs).toEqual([
      { kind: 'format_json_object' },
      { kind: 'code_fence' },
      { kind: 'prose_around_json' },
      { kind: 'trailing_comma' },
      { kind: 'update_name_for_new_spec', path: 'updates[0].new_spec.name' },
      { kind: 'missing_optional_key', path: 'skip_reason' },
      { kind: 'missing_optional_key', path: 'creates' },
      { kind: 'missing_optional_key', path: 'updates[0].reason' },
      { kind: 'missing_optional_key', path: 'deletions' },
    ]);
    for (const r of [...a.outcomes, ...b.outcomes].map((o) => o.reviewerAnswer!)) {
      expect(r.promptTokens).toBeGreaterThan(0);
      expect(r.completionTokens).toBeGreaterThan(0);
    }
    // The outcome as stored beside the scope says the same.
    const stored = await nonStrict.store.readJobOutcome(b.outcomes[1]!.scopeKey, b.outcomes[1]!.jobId);
    expect(stored?.reviewerAnswer).toEqual(updated);
  });
});
