import { scopeKey as scopeKeyOf, type Revision, type Scope } from '../../core';
import { addCounts, countRevisions, jobOutcomeDelta } from '../../core/governance';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import { mapLimit, type SkillStore } from '../../storage';

/**
 * A scope's history, written straight to storage as the learning loop would have left it:
 * `revisions` decided revisions (archived, rejected by a gate or a person) spread over
 * `skills` skills, and `jobs` job outcomes (some with dropped candidates, some quarantined).
 * What the console and `evolution metrics` must not read on every request. The scope's
 * governance counters are left as its usage workflow would have kept them while that history
 * was written (one burst holding their sum).
 */
export async function seedHistory(store: SkillStore, scope: Scope, opts: { revisions: number; skills: number; jobs: number; tag: string }): Promise<void> {
  const scopeKey = scopeKeyOf(scope);
  const at = new Date(Date.now() - 86400_000).toISOString();
  const revisions = await mapLimit(
    Array.from({ length: opts.revisions }, (_, i) => i),
    32,
    async (i): Promise<Revision> => {
      const skillId = `${opts.tag}-skill-${i % opts.skills}`;
      const kind = i % 3;
      return store.createRevision({
        id: `${opts.tag}-rev-${i}`,
        skillId,
        scopeKey,
        scope,
        action: 'update',
        status: kind === 0 ? 'archived' : 'rejected',
        spec: { ...WEATHER_SEED_SKILL, name: skillId },
        source: 'reviewer',
        jobId: `${opts.tag}-job-${i}`,
        reason: 'history',
        gates: [{ gate: 'spec', ran: true, passed: kind !== 1, held: false, reasons: kind === 1 ? ['spec failed'] : [] }],
        ...(kind === 2 ? { human: { held: true, reasons: ['held'], decision: 'rejected' as const, reviewer: 'someone' } } : {}),
        createdAt: at,
        updatedAt: at,
        history:
          kind === 0
            ? [
                { from: 'pending', to: 'active', at, reason: 'published' },
                { from: 'active', to: 'archived', at, reason: 'replaced' },
              ]
            : [],
      });
    },
  );
  const jobs = Array.from({ length: opts.jobs }, (_, i) => ({
    jobId: `${opts.tag}-job-${i}`,
    scopeKey,
    sessionId: `s-${i % 50}`,
    status: i % 10 === 0 ? ('quarantined' as const) : ('reviewed' as const),
    reason: 'history',
    deltaEvents: 4,
    cursorAdvanced: true,
    revisions: [],
    dropped: i % 4 === 0 ? [{ name: 'x', list: 'creates' as const, reason: 'duplicate' }] : [],
  }));
  await mapLimit(jobs, 32, (job) => store.writeJobOutcome(job, at));
  const counts = jobs.reduce((sum, job) => addCounts(sum, jobOutcomeDelta(job)), countRevisions(revisions));
  await store.applyScopeRecordsBurst(scopeKey, [{ kind: 'counts', id: `history-seed:${opts.tag}`, at, counts }], at);
}
