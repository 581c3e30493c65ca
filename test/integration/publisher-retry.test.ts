import { beforeAll, describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { publisherActivities, revisionPublisher, type PublishInput, type PublishResult } from '../../activities/publisher';
import { scopeRecording } from '../../activities/usage';
import { jobPublicationActivities } from '../../activities/job-publication';
import { recordActivities } from '../../activities/record';
import { createSkillStore, revisionLocatorKey, type SkillStore } from '../../storage';
import { buildGovernedRevision, decidedForPublication, outcomeWithRevision, type GovernanceSettings } from '../../core/governance';
import { auditEventId, learningRevisionIdFor, RECENT_OPERATIONS, revisionIdFor, scopeKey as scopeKeyOf, type IndexChange, type ScopeRecord, type SkillSpec } from '../../core';
import { realServices, uniqueName } from '../support/infra';
import { reviewedOutcomeBefore } from '../support/job-outcome';

// Temporal retries an activity whose first attempt may have finished its work: the
// publisher must recognise its own earlier work and never undo a newer publication.
let store: SkillStore;
const governance: GovernanceSettings = { humanGate: 'none', shadowMode: false, minToolCalls: 4, effectivenessThreshold: 0.8 };

beforeAll(async () => {
  store = createSkillStore((await realServices(['s3'])).s3);
});

function spec(version: number): SkillSpec {
  return { name: 'retry-skill', description: `version ${version}`, when_to_use: 'when testing retries', steps: ['look', `apply v${version}`], pitfalls: [] };
}

function gatedRevision(app: string, jobId: string, version: number, parentId?: string) {
  const scope = { mode: 'app' as const, app };
  return buildGovernedRevision(
    {
      candidate: { action: version === 1 ? 'create' : 'update', source: 'reviewer', spec: spec(version), targetName: 'retry-skill' },
      revisionId: revisionIdFor(jobId, 0),
      skillId: 'retry-skill',
      parentId,
      jobId,
      scope,
      scopeKey: scopeKeyOf(scope),
      reason: `v${version}`,
    },
    { existing: [], governance, at: `2026-11-29T10:0${version}:00.000Z` },
  );
}

async function storedRevision(app: string, jobId: string, version: number, parentId?: string) {
  const rev = gatedRevision(app, jobId, version, parentId);
  await recordActivities({ store }).recordRevision({ revision: rev });
  return { scopeKey: rev.scopeKey, skillId: rev.skillId, revisionId: rev.id };
}

// The index signal is the worker's transport to the scope index workflow; here the
// signals are collected, because this file tests the publisher's decisions on S3 alone.
// Activities run in Temporal's activity environment (heartbeats, info).
function publisher() {
  const signals: IndexChange[] = [];
  const activities = publisherActivities({
    store,
    revisions: revisionPublisher({ store, signalIndex: async (_scope, change) => void signals.push(change) }),
    signalRejections: async () => {},
  });
  const env = new MockActivityEnvironment();
  return { publishRevision: (input: PublishInput) => env.run(activities.publishRevision, input), signals };
}

describe('publisher under activity retries', () => {
  it('a retried publication of a revision that was since superseded returns its first result and does not move the pointer back', async () => {
    const app = uniqueName('retry');
    const { publishRevision, signals } = publisher();
    const a = await storedRevision(app, uniqueName('job'), 1);
    const b = await storedRevision(app, uniqueName('job'), 2);
    const publishA = { revision: a, opId: `${app}#a`, actor: 'evolution', reason: 'all gates passed', at: '2026-11-29T11:00:00.000Z', auditAction: 'promote' as const };
    expect(await publishRevision(publishA)).toMatchObject({ status: 'active', outcome: 'published' });
    await publishRevision({ ...publishA, opId: `${app}#b`, revision: b, at: '2026-11-29T11:05:00.000Z' });
    const auditBefore = await store.listAudit(a.scopeKey, a.skillId);

    const retried = await publishRevision(publishA); // the same input: a retry of the first attempt
    expect(retried).toMatchObject({ status: 'active', outcome: 'published' });
    const pointer = (await store.readActive(a.scopeKey, a.skillId))!.pointer;
    expect(pointer).toMatchObject({ revisionId: b.revisionId, seq: 2 });
    expect((await store.findRevision(a.revisionId))?.status).toBe('archived');
    expect((await store.findRevision(b.revisionId))?.status).toBe('active');
    const audit = await store.listAudit(a.scopeKey, a.skillId);
    expect(audit).toEqual(auditBefore);
    expect(audit.filter((e) => e.action === 'promote').map((e) => e.revisionId)).toEqual([a.revisionId, b.revisionId]);
    // The retry announced the pointer as it is now (the newer publication), never the old one.
    expect(signals.map((c) => `${c.revisionId}@${c.seq}`)).toEqual([`${a.revisionId}@1`, `${b.revisionId}@2`, `${b.revisionId}@2`]);
  });

  it('an attempt that wrote its log entry and died before the PUT is completed by its retry', async () => {
    const app = uniqueName('half');
    const { publishRevision } = publisher();
    const a = await storedRevision(app, uniqueName('job'), 1);
    const input = { revision: a, opId: `${app}#a`, actor: 'evolution', reason: 'all gates passed', at: '2026-11-29T11:00:00.000Z', auditAction: 'promote' as const };
    // What the first attempt left behind: its log entry (pointer seq 0 read), no pointer.
    await store.appendAudit({
      id: auditEventId(input.opId, 'promote'),
      opId: input.opId,
      baseSeq: 0,
      at: input.at,
      action: 'promote',
      skillId: a.skillId,
      scopeKey: a.scopeKey,
      revisionId: a.revisionId,
      status: 'active',
      actor: 'evolution',
      reason: input.reason,
    });
    expect(await publishRevision(input)).toMatchObject({ status: 'active', outcome: 'published' });
    expect((await store.readActive(a.scopeKey, a.skillId))?.pointer).toMatchObject({ revisionId: a.revisionId, seq: 1, recent: [{ opId: input.opId }] });
    expect((await store.listAudit(a.scopeKey, a.skillId)).filter((e) => e.opId === input.opId).map((e) => e.id)).toEqual([auditEventId(input.opId, 'promote')]);
  });

  it('a retry that cannot tell whether it applied (more than RECENT_OPERATIONS newer operations) never moves the pointer back', async () => {
    const app = uniqueName('many');
    const { publishRevision } = publisher();
    const a = await storedRevision(app, uniqueName('job'), 1);
    const b = await storedRevision(app, uniqueName('job'), 2);
    const publishA = { revision: a, opId: `${app}#a`, actor: 'evolution', reason: 'all gates passed', at: '2026-11-29T11:00:00.000Z', auditAction: 'promote' as const };
    await publishRevision(publishA);
    for (let i = 0; i < RECENT_OPERATIONS; i++)
      await publishRevision({ ...publishA, revision: i % 2 ? a : b, opId: `${app}#op${i}`, at: new Date(Date.parse('2026-11-29T12:00:00.000Z') + i * 1000).toISOString() });
    const before = (await store.readActive(a.scopeKey, a.skillId))!.pointer;
    expect(before.recent.some((o) => o.opId === publishA.opId)).toBe(false);
    expect(await publishRevision(publishA)).toMatchObject({ status: 'archived', outcome: 'published' });
    expect((await store.readActive(a.scopeKey, a.skillId))!.pointer).toEqual(before);
  });

  it('a retried stale-parent rejection completes with stale_parent and one audit event', async () => {
    const app = uniqueName('stale');
    const { publishRevision } = publisher();
    const v1 = await storedRevision(app, uniqueName('job'), 1);
    await publishRevision({ revision: v1, opId: `${app}#v1`, actor: 'evolution', reason: 'all gates passed', at: '2026-11-29T11:00:00.000Z', auditAction: 'promote' });
    const v2 = await storedRevision(app, uniqueName('job'), 2, 'rev-some-older-parent');
    const input = {
      revision: v2,
      opId: `${app}#v2`,
      actor: 'maria',
      reason: 'approved',
      at: '2026-11-29T12:00:00.000Z',
      auditAction: 'approve' as const,
      requireParentId: 'rev-some-older-parent',
    };
    expect(await publishRevision(input)).toEqual({ status: 'rejected', outcome: 'stale_parent' });
    expect(await publishRevision(input)).toEqual({ status: 'rejected', outcome: 'stale_parent' });
    expect((await store.readActive(v1.scopeKey, v1.skillId))?.pointer.revisionId).toBe(v1.revisionId);
    const stale = (await store.listAudit(v2.scopeKey, v2.skillId)).filter((e) => e.action === 'stale_parent');
    expect(stale).toHaveLength(1);
  });
});

describe('recordRevision under activity retries', () => {
  it('answers asWritten for the revision it stored (again on a retry), and with the stored copy once that moved on', async () => {
    const { recordRevision } = recordActivities({ store });
    const gated = gatedRevision(uniqueName('record'), uniqueName('job'), 1);
    expect(gated.status).toBe('pending');
    const ref = { scopeKey: gated.scopeKey, skillId: gated.skillId, revisionId: gated.id };

    expect(await recordRevision({ revision: gated, publishNow: true })).toEqual({ asWritten: true });
    const stored = await store.readRevision(ref.scopeKey, ref.skillId, ref.revisionId);
    expect(stored).toEqual(decidedForPublication(gated));
    expect(stored).toMatchObject({ status: 'active', promotedAt: gated.createdAt });
    expect(await recordRevision({ revision: gated, publishNow: true })).toEqual({ asWritten: true });

    // Moved on (here: rolled off by a later publication): a retry gets what is stored, not an ack.
    const archived = await store.transitionRevision(ref, { to: 'archived', reason: 'superseded', at: '2026-11-29T12:00:00.000Z' });
    expect(await recordRevision({ revision: gated, publishNow: true })).toEqual(archived);
  });
});

describe("a learning job's publication step under activity retries", () => {
  it('records, publishes and records the outcome once; a retry of the same input answers the same and writes nothing new', async () => {
    const app = uniqueName('job-step');
    const jobId = uniqueName('job');
    const gated = gatedRevision(app, jobId, 1);
    const signals: IndexChange[] = [];
    const record = recordActivities({ store });
    const { publishPointer } = revisionPublisher({ store, signalIndex: async (_scope, change) => void signals.push(change) });
    const { recordAndPublishRevision } = jobPublicationActivities({ store, recordRevision: record.recordRevision, publishPointer });
    const before = reviewedOutcomeBefore(jobId, gated.scopeKey);
    const input = { jobId, revision: gated, outcome: { before, at: '2026-11-29T10:01:05.000Z' } };
    const env = new MockActivityEnvironment();

    const first: PublishResult = await env.run(recordAndPublishRevision, input);
    expect(first).toMatchObject({ status: 'active', outcome: 'published', indexSeq: expect.any(Number) });
    const stored = await store.readRevision(gated.scopeKey, gated.skillId, gated.id);
    expect(stored).toEqual(decidedForPublication(gated));
    const outcome = outcomeWithRevision(before, gated, 'active', first.indexSeq);
    expect(await store.readJobOutcome(gated.scopeKey, jobId)).toEqual({ ...outcome, recordedAt: input.outcome.at });
    const audit = await store.listAudit(gated.scopeKey, gated.skillId);

    expect(await env.run(recordAndPublishRevision, input)).toEqual(first);
    expect(await store.readRevision(gated.scopeKey, gated.skillId, gated.id)).toEqual(stored);
    expect(await store.listAudit(gated.scopeKey, gated.skillId)).toEqual(audit);
    expect(await store.readJobOutcome(gated.scopeKey, jobId)).toEqual({ ...outcome, recordedAt: input.outcome.at });
    expect(audit).toHaveLength(1);
    expect((await store.readActive(gated.scopeKey, gated.skillId))?.pointer.revisionId).toBe(gated.id);
  });

  it('an attempt that stored the revision and died before the outcome leaves it to the retry, which writes the locator too', async () => {
    const app = uniqueName('job-step-crash');
    const jobId = uniqueName('job');
    const scope = { mode: 'app' as const, app };
    const gated = { ...gatedRevision(app, jobId, 1), id: learningRevisionIdFor(scopeKeyOf(scope), jobId, 0) };
    const before = reviewedOutcomeBefore(jobId, gated.scopeKey);
    const input = { jobId, revision: gated, outcome: { before, at: '2026-11-29T10:01:05.000Z' } };
    const step = (over: SkillStore) => {
      const { publishPointer } = revisionPublisher({ store: over, signalIndex: async () => undefined });
      return jobPublicationActivities({ store: over, recordRevision: recordActivities({ store: over }).recordRevision, publishPointer }).recordAndPublishRevision;
    };
    const dying: SkillStore = {
      ...store,
      writeJobOutcome: async () => {
        throw new Error('the worker died here');
      },
    };

    await expect(new MockActivityEnvironment().run(step(dying), input)).rejects.toThrow('the worker died here');
    expect(await store.readRevision(gated.scopeKey, gated.skillId, gated.id)).toBeDefined();
    expect(await store.objects.getText(revisionLocatorKey(gated.id))).toBeUndefined(); // the first attempt counts on the outcome
    expect(await store.findRevision(gated.id)).toBeUndefined();

    expect(await new MockActivityEnvironment({ attempt: 2 }).run(step(store), input)).toMatchObject({ status: 'active', outcome: 'published' });
    expect(await store.objects.getText(revisionLocatorKey(gated.id))).toBeDefined();
    expect(await store.findRevision(gated.id)).toMatchObject({ id: gated.id, status: 'active' });
    expect(await store.readJobOutcome(gated.scopeKey, jobId)).toMatchObject({ revisions: [{ revisionId: gated.id, status: 'active' }] });
  });

  it("tells the scope's usage workflow while its index signal is still in flight: neither waits for the other", async () => {
    const app = uniqueName('job-step-overlap');
    const jobId = uniqueName('job');
    const gated = gatedRevision(app, jobId, 1);
    let releaseIndex!: () => void;
    const indexHeld = new Promise<void>((resolve) => (releaseIndex = resolve));
    const told: string[] = [];
    const usageRecords: ScopeRecord[] = [];
    const recording = scopeRecording(async (_scopeKey, records) => {
      told.push('usage');
      usageRecords.push(...records);
    });
    const recordingStore = recording.recordingStore(store);
    const record = recordActivities({ store: recordingStore, noteSession: recording.noteSession });
    const signalIndex = async () => {
      told.push('index');
      await indexHeld;
    };
    const { recordAndPublishRevision } = jobPublicationActivities({
      store: recordingStore,
      recordRevision: record.recordRevision,
      publishPointer: revisionPublisher({ store: recordingStore, signalIndex }).publishPointer,
      noteSession: recording.noteSession,
      sendCollected: recording.sendCollected,
    });
    const usage = { session: { jobId, sessionId: 's', loads: [] }, indexEtag: null };
    const input = { jobId, revision: gated, outcome: { before: reviewedOutcomeBefore(jobId, gated.scopeKey), at: '2026-11-29T10:01:05.000Z', usage } };

    const run = new MockActivityEnvironment().run(recording.within(recordAndPublishRevision), input);
    for (const deadline = Date.now() + 10_000; !told.includes('usage') && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
    // The index signal has not returned, and the usage workflow has the job's records: the revision's count, the publication's log entry, the session.
    expect(told).toEqual(['index', 'usage']);
    expect(usageRecords.map((r) => (r.kind === 'counts' ? r.id : r.kind))).toEqual([`revision:${gated.id}`, 'audit', 'session']);
    expect(await store.readJobOutcome(gated.scopeKey, jobId)).toMatchObject({ jobId, status: 'reviewed' });
    releaseIndex();
    expect(await run).toMatchObject({ status: 'active', outcome: 'published', indexSeq: expect.any(Number) });
    expect(told).toEqual(['index', 'usage']); // nothing was left to send when the activity ended
  });
});
