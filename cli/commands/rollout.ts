import { flag, positional, requiredFlag } from '../args';
import type { Command, CommandContext } from '../command';
import { withServices } from '../services';
import type { RolloutStatus } from '../../client/rollout';

const ACTIONS = ['status', 'promote', 'abort'] as const;

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** One rollout in a few lines: where it is, the last look at its cohorts, and what ends it. */
export function rolloutLines(s: RolloutStatus): string {
  const lines = [`${s.candidateRevisionId} (skill ${s.skillId} in ${s.scopeKey}) over ${s.stableRevisionId}: ${s.state.replace('_', ' ')}`];
  if (s.result) lines.push(`  ${s.result.outcome.replace('_', ' ')} by ${s.result.decidedBy} at ${s.result.at}: ${s.result.reason}`);
  else
    lines.push(
      `  candidate gets ${pct(s.fraction)} of sessions (steps ${s.steps.map(pct).join(', ')}, then 100 %); ${s.minSamplePerCohort} judged sessions per cohort before any decision`,
    );
  if (s.last)
    lines.push(
      `  last look ${s.last.at} (${s.checks} so far): candidate ${s.last.candidate.success}/${s.last.candidate.judged}, stable ${s.last.stable.success}/${s.last.stable.judged} succeeded; ${s.last.reason}`,
    );
  if (!s.result) lines.push(`  ${s.state === 'held' ? 'held for an approver since' : `${s.onExpiry} at`} ${s.deadline} unless decided before`);
  return lines.join('\n');
}

async function run(ctx: CommandContext) {
  const action = positional(ctx.args, 0, 'ACTION') as (typeof ACTIONS)[number]; // one of ACTIONS: the parser checks the choices
  const revisionId = positional(ctx.args, 1, 'REVISION_ID');
  const { rolloutStatus, promoteRollout, abortRollout } = await import('../../client/rollout');
  return withServices(ctx, async ({ temporal }) => {
    if (action === 'status') {
      const status = await rolloutStatus(temporal.client, revisionId);
      return ctx.out(status, () => rolloutLines(status));
    }
    const reviewer = requiredFlag(ctx.args, 'reviewer');
    const decide = action === 'promote' ? promoteRollout : abortRollout;
    const status = await decide(temporal.client, revisionId, { reviewer, comment: flag(ctx.args, 'comment') });
    ctx.out(status, () => rolloutLines(status));
  });
}

export const rolloutCommands: Record<string, Command> = {
  rollout: {
    arguments: [{ name: 'ACTION', choices: [...ACTIONS] }, { name: 'REVISION_ID' }],
    options: {
      reviewer: { value: 'R', description: 'promote/abort: who decides (recorded in the audit trail)' },
      comment: { value: 'TEXT', description: 'promote/abort: why, recorded with the decision' },
    },
    summary: "a canary's staged rollout (docs/rollout.md): status, or an approver's promote (to every session) or abort (roll back)",
    run,
  },
};
