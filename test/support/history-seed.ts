import { scopeKey as scopeKeyOf, type Scope } from '../../core';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import { mapLimit, type SkillStore } from '../../storage';

/**
 * A scope's history, written straight to storage as the learning loop would have left it:
 * `revisions` decided revisions (archived, rejected by a gate or a person) spread over
 * `skills` skills, and `jobs` job outcomes (some with dropped candidates, some quarantined).
 * What the console and `evolution metrics` must not read on every request.
 */
export async function seedHistory(store: SkillStore, scope: Scope, opts: { revisions: number; skills: number; jobs: number; tag: string }): Promise<void> {
  const scopeKey = scopeKeyOf(scope);
  const at = new Date(Date.now() - 86400_000).toISOString();
  await mapLimit(
    Array.from({ length: opts.revisions }, (_, i) => i),
    32,
    async (i) => {
      const skillId = `${opts.tag}-skill-${i % opts.skills}`;
      const kind = i % 3;
      await store.createRevision({
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
  await mapLimit(
    Array.from({ length: opts.jobs }, (_, i) => i),
    32,
    (i) =>
      store.writeJobOutcome(
        {
          jobId: `${opts.tag}-job-${i}`,
          scopeKey,
          sessionId: `s-${i % 50}`,
          status: i % 10 === 0 ? ('quarantined' as const) : ('reviewed' as const),
          reason: 'history',
          deltaEvents: 4,
          cursorAdvanced: true,
          revisions: [],
          dropped: i % 4 === 0 ? [{ name: 'x', list: 'creates', reason: 'duplicate' }] : [],
        },
        at,
      ),
  );
}
