import { describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { StateError } from '../../core/errors';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { rollbackSkill } from '../../client/rollback';
import { RECENT_OPERATIONS, type SessionEvent } from '../../core';
import { uniqueName } from '../support/infra';
import { expectPublished } from '../support/published';
import { exampleSession } from '../support/sessions';
import { useMainWorker } from '../support/worker';

// Invariant 4: many writers, one skill, no locks. Every revision comes from a real
// learning job (human gate "always"), every operation goes through the client API.
const fx = useMainWorker({ humanGate: 'always' });

const SKILL = 'multi-city-weather-report';
const HELD = 12;

/** The weather session with a distinct request text, so every version has a distinct description and SKILL.md. */
function variant(i: number): SessionEvent[] {
  return exampleSession('weather-report').map((e, idx) => (idx === 0 ? { ...e, content: `${e.content as string} (variant ${i})` } : e));
}

type Op = { kind: 'approve'; revisionId: string; reviewer: string } | { kind: 'rollback'; targetRevisionId?: string; reviewer: string };

describe('20 concurrent approvals and rollbacks on one skill', () => {
  it('leave exactly one active revision, the one the pointer names, with SKILL.md, index and audit consistent', async () => {
    const app = uniqueName('app');
    const deps = { client: fx.w.client, store: fx.store, config: fx.w.config };
    const learn = async (sessionId: string, events: SessionEvent[]) => {
      const started = await startLearningJob(deps, { app, user: 'u1', sessionId, events });
      return waitForLearningJob(fx.w, started.jobWorkflowId, { timeoutMs: 60_000 });
    };

    // v0: the create, approved. Then HELD updates of it, from HELD sessions in parallel.
    const created = await learn('s0', variant(0));
    expect(created.revisions).toMatchObject([{ action: 'create', status: 'pending_approval' }]);
    const v0 = created.revisions[0]!.revisionId;
    const scopeKey = created.scopeKey;
    await decideRevision(deps, v0, { decision: 'approve', reviewer: 'setup' });
    const updates = await Promise.all(Array.from({ length: HELD }, (_, i) => learn(`s${i + 1}`, variant(i + 1))));
    const held = updates.map((o) => {
      expect(o.revisions).toMatchObject([{ action: 'update', status: 'pending_approval', skillId: SKILL }]);
      return o.revisions[0]!.revisionId;
    });
    // Two approvals in sequence, so there are archived revisions to roll back to: v0, held[0].
    await decideRevision(deps, held[0]!, { decision: 'approve', reviewer: 'setup' });
    await decideRevision(deps, held[1]!, { decision: 'approve', reviewer: 'setup' });
    await expectPublished(fx.store, { mode: 'app', app, key: scopeKey }, SKILL, held[1]!);

    // 20 at once: 10 approvals, 5 rollbacks to "the latest archived", 5 to a chosen revision.
    const ops: Op[] = [
      ...held.slice(2).map((revisionId, i): Op => ({ kind: 'approve', revisionId, reviewer: `approver-${i}` })),
      ...Array.from({ length: 5 }, (_, i): Op => ({ kind: 'rollback', reviewer: `rollback-latest-${i}` })),
      ...Array.from({ length: 5 }, (_, i): Op => ({ kind: 'rollback', targetRevisionId: i % 2 ? held[0] : v0, reviewer: `rollback-chosen-${i}` })),
    ];
    expect(ops).toHaveLength(20);
    const results = await Promise.allSettled(
      ops.map((op) =>
        op.kind === 'approve'
          ? decideRevision(deps, op.revisionId, { decision: 'approve', reviewer: op.reviewer }).then((r) => ({ restored: r.revisionId, finalStatus: r.finalStatus }))
          : rollbackSkill(deps, { scopeKey, skillId: SKILL, targetRevisionId: op.targetRevisionId, reviewer: op.reviewer }).then((r) => ({
              restored: r.restoredRevisionId,
              finalStatus: 'active',
            })),
      ),
    );

    // Approvals cannot lose: each held revision is published once. A rollback may only
    // fail because its chosen target was not archived at that moment, with a clear error.
    results.forEach((r, i) => {
      const op = ops[i]!;
      if (op.kind === 'approve' || !op.targetRevisionId) expect(r, `${op.reviewer}`).toMatchObject({ status: 'fulfilled', value: { finalStatus: 'active' } });
      else if (r.status === 'rejected') {
        expect(r.reason).toBeInstanceOf(StateError);
        expect((r.reason as Error).message).toMatch(new RegExp(`^revision ${op.targetRevisionId} is active, not archived`));
      }
    });
    const succeeded = ops.filter((_, i) => results[i]!.status === 'fulfilled');

    // Every consistency rule is checked and every violation collected, so one failure
    // message shows the whole state.
    const problems: string[] = [];
    const pointer = (await fx.store.readActive(scopeKey, SKILL))!.pointer;
    const revisions = await fx.store.listRevisions(scopeKey, SKILL);
    const audit = await fx.store.listAudit(scopeKey, SKILL);
    const state = () =>
      revisions.map((r) => `${r.id} ${r.status} ${r.history.map((h) => `${h.from}→${h.to}@${h.at}`).join(', ')}`).join('\n') + `\npointer: ${JSON.stringify(pointer.recent)}`;

    // The pointer and the revision statuses agree: one active revision, the pointer's;
    // every other revision was published at some point and is now archived.
    expect(revisions).toHaveLength(HELD + 1);
    const active = revisions.filter((r) => r.status === 'active').map((r) => r.id);
    if (active.length !== 1 || active[0] !== pointer.revisionId) problems.push(`pointer names ${pointer.revisionId} but the active revisions are [${active.join(', ')}]`);
    for (const r of revisions) if (r.status !== 'active' && r.status !== 'archived') problems.push(`${r.id} is ${r.status}`);

    // Audit: every completed operation exactly once, failed ones not at all; every activation
    // explained by an operation. Archiving is derived from the pointer, never an event.
    if (new Set(audit.map((e) => e.id)).size !== audit.length) problems.push('duplicate audit event ids');
    for (const [i, op] of ops.entries()) {
      const mine = audit.filter((e) => e.actor === op.reviewer && (e.action === 'approve' || e.action === 'rollback')).map((e) => `${e.action} ${e.revisionId}`);
      const r = results[i]!;
      const expected = r.status === 'rejected' ? [] : [`${op.kind} ${r.value.restored}`];
      if (JSON.stringify(mine) !== JSON.stringify(expected)) problems.push(`${op.reviewer}: audit has [${mine.join(', ')}], expected [${expected.join(', ')}]`);
    }
    const count = (action: string) => audit.filter((e) => e.action === action).length;
    if (count('approve') !== HELD + 1) problems.push(`${count('approve')} approve events for ${HELD + 1} approvals`);
    const rollbacksDone = succeeded.filter((o) => o.kind === 'rollback').length;
    if (count('rollback') !== rollbacksDone) problems.push(`${count('rollback')} rollback events for ${rollbacksDone} completed rollbacks`);
    if (count('archive') !== 0) problems.push(`${count('archive')} archive events`);
    for (const rev of revisions) {
      const activated = rev.history.some((h) => h.to === 'active');
      const explained = audit.some((e) => (e.action === 'approve' || e.action === 'rollback') && e.revisionId === rev.id);
      if (activated !== explained) problems.push(`${rev.id}: activated ${activated}, approve/rollback audited ${explained}`);
    }
    // The pointer moved once per completed operation (3 setup approvals + the successful ones), each remembered once.
    const moves = 3 + succeeded.length;
    if (pointer.seq !== moves) problems.push(`pointer seq ${pointer.seq}, expected ${moves} moves`);
    if (new Set(pointer.recent.map((o) => o.opId)).size !== pointer.recent.length) problems.push('an operation moved the pointer twice');
    if (pointer.recent.length !== Math.min(moves, RECENT_OPERATIONS)) problems.push(`${pointer.recent.length} remembered operations for ${moves} moves`);
    expect(problems, `${problems.join('\n')}\n--- revisions ---\n${state()}`).toEqual([]);
    await expectPublished(fx.store, { mode: 'app', app, key: scopeKey }, SKILL, pointer.revisionId);
  });
});
