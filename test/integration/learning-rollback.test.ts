import { describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { StateError } from '../../core/errors';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { rollbackSkill } from '../../client/rollback';
import type { SessionEvent } from '../../core';
import { uniqueName } from '../support/infra';
import { expectPublished } from '../support/published';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

// Rollback end to end: learning jobs publish v1 (approved create), v2 and v3 (updates,
// which the create_only human gate lets through), then the rollback workflow moves the
// pointer back; agents (repository and scope index) follow.
const fx = useMainWorker({ humanGate: 'create_only' });

const SKILL = 'multi-city-weather-report';

/** A third segment of the same session: another correction and a re-run (appended after the follow-up). */
function thirdSegment(before: SessionEvent[]): SessionEvent[] {
  const call = (id: string, name: string, args: object) => ({ id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } });
  return [
    ...before,
    { role: 'user', content: `No, you should have added the humidity too. [[skill:${SKILL}]]`, timestamp: '2026-11-29T10:30:00Z' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [call('h1', 'get_humidity', { city: 'Paris' }), call('h2', 'format_report', { units: 'celsius', humidity: true })],
      timestamp: '2026-11-29T10:31:00Z',
    },
    { role: 'tool', tool_call_id: 'h1', content: '{"humidity":81}', timestamp: '2026-11-29T10:32:00Z' },
    { role: 'tool', tool_call_id: 'h2', content: 'ok', timestamp: '2026-11-29T10:32:00Z' },
    { role: 'assistant', content: 'Paris 14°C/7°C rain, humidity 81%.', timestamp: '2026-11-29T10:33:00Z' },
  ];
}

/** Publishes v1, v2, v3 of the weather skill in a fresh app; returns their revision ids. */
async function publishThreeVersions() {
  const app = uniqueName('app');
  const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
  const session = { app, user: 'u1', sessionId: 's1' };
  const run = async (events: SessionEvent[]) => waitForLearningJob(fx.w, (await startLearningJob(deps, { ...session, events })).jobWorkflowId, { timeoutMs: 60_000 });

  const first = await run(exampleSession('weather-report'));
  expect(first.revisions).toMatchObject([{ action: 'create', status: 'pending_approval', name: SKILL }]);
  const v1 = first.revisions[0]!.revisionId;
  expect(await decideRevision(deps, v1, { decision: 'approve', reviewer: 'alice' })).toMatchObject({ decision: 'approved', finalStatus: 'active' });

  const followup = exampleSession('weather-report-followup');
  const second = await run(followup);
  expect(second.revisions).toMatchObject([{ action: 'update', status: 'active', name: SKILL }]);
  const v2 = second.revisions[0]!.revisionId;

  const third = await run(thirdSegment(followup));
  expect(third.revisions).toMatchObject([{ action: 'update', status: 'active', name: SKILL }]);
  const v3 = third.revisions[0]!.revisionId;

  const scope = { mode: 'app' as const, app, key: first.scopeKey };
  await expectPublished(fx.store, scope, SKILL, v3);
  return { scope, deps, v1, v2, v3 };
}

describe('rollback', () => {
  it('to the latest archived revision, then to a chosen one; agents follow the pointer; every step audited', async () => {
    const { scope, v1, v2, v3 } = await publishThreeVersions();
    const specs = Object.fromEntries(await Promise.all([v1, v2, v3].map(async (id) => [id, (await fx.store.readRevision(scope.key, SKILL, id))!.spec!] as const)));
    // Three different published versions (the follow-up's re-run passes units; the third adds humidity).
    expect(specs[v1]!.steps.join('\n')).not.toMatch(/units/);
    expect(specs[v2]!.steps.join('\n')).toMatch(/units/);
    expect(specs[v3]!.steps.join('\n')).toMatch(/get_humidity/);

    // Default target: the most recently archived revision (v2).
    const back = await rollbackSkill({ client: fx.w.client, config: fx.w.config }, { scopeKey: scope.key, skillId: SKILL, reviewer: 'carol', comment: 'v3 regressed' });
    expect(back).toEqual({ skillId: SKILL, restoredRevisionId: v2, archivedRevisionId: v3 });
    await expectPublished(fx.store, scope, SKILL, v2);

    // A chosen revision (v1, not the latest archived one).
    const chosen = await rollbackSkill({ client: fx.w.client, config: fx.w.config }, { scopeKey: scope.key, skillId: SKILL, targetRevisionId: v1, reviewer: 'dave' });
    expect(chosen).toEqual({ skillId: SKILL, restoredRevisionId: v1, archivedRevisionId: v2 });
    await expectPublished(fx.store, scope, SKILL, v1);
    expect((await fx.store.readActive(scope.key, SKILL))?.pointer.spec).toEqual(specs[v1]);

    const audit = await fx.store.listAudit(scope.key, SKILL);
    const rollbacks = audit.filter((e) => e.action === 'rollback').map((e) => [e.revisionId, e.actor, e.reason]);
    expect(rollbacks).toEqual([
      [v2, 'carol', 'v3 regressed'],
      [v1, 'dave', `rollback from ${v2} to ${v1}`],
    ]);
    // Archiving is not an event any more: every revision the pointer does not name is archived by derivation.
    expect(audit.filter((e) => e.action === 'archive')).toEqual([]);
    expect(audit.filter((e) => e.action === 'promote').map((e) => e.revisionId)).toEqual([v2, v3]);
    const statuses = Object.fromEntries((await fx.store.listRevisions(scope.key, SKILL)).map((r) => [r.id, r.status]));
    expect(statuses).toEqual({ [v1]: 'active', [v2]: 'archived', [v3]: 'archived' });
    // The pointer remembers the operations that moved it, in order.
    const pointer = (await fx.store.readActive(scope.key, SKILL))!.pointer;
    expect(pointer.recent.map((o) => o.revisionId)).toEqual([v1, v2, v3, v2, v1]);
    expect(pointer.seq).toBe(5);
  });

  it('refuses a target that is not archived, and a skill with no archived revision, with clear errors', async () => {
    const app = uniqueName('app');
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const started = await startLearningJob(deps, { app, user: 'u1', sessionId: 's1', events: exampleSession('weather-report') });
    const outcome = await waitForLearningJob(fx.w, started.jobWorkflowId, { timeoutMs: 60_000 });
    const v1 = outcome.revisions[0]!.revisionId;
    const scope = { mode: 'app' as const, app, key: started.scopeKey };

    // Held, not archived: cannot be a rollback target.
    await expect(rollbackSkill(deps, { scopeKey: scope.key, skillId: SKILL, targetRevisionId: v1, reviewer: 'carol' })).rejects.toThrow(
      new StateError(`revision ${v1} is pending_approval, not archived: only archived revisions can be rolled back to`),
    );
    await decideRevision(deps, v1, { decision: 'approve', reviewer: 'alice' });
    const before = await fx.store.readActive(scope.key, SKILL);

    // Only one revision ever published: nothing to go back to.
    await expect(rollbackSkill(deps, { scopeKey: scope.key, skillId: SKILL, reviewer: 'carol' })).rejects.toThrow(
      new StateError(`no archived revision of skill ${SKILL} to roll back to`),
    );
    await expect(rollbackSkill(deps, { scopeKey: scope.key, skillId: SKILL, targetRevisionId: 'rev-unknown-0', reviewer: 'carol' })).rejects.toThrow(
      new StateError(`revision rev-unknown-0 is not a revision of skill ${SKILL}`),
    );
    await expect(rollbackSkill(deps, { scopeKey: scope.key, skillId: 'no-such-skill', reviewer: 'carol' })).rejects.toThrow(
      new StateError(`skill no-such-skill has no revisions in ${scope.key}`),
    );
    // Nothing moved, nothing audited as a rollback.
    expect(await fx.store.readActive(scope.key, SKILL)).toEqual(before);
    await expectPublished(fx.store, scope, SKILL, v1);
    expect((await fx.store.listAudit(scope.key, SKILL)).filter((e) => e.action === 'rollback')).toEqual([]);
  });
});
