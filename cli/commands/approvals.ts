import { flag, positional, requiredFlag } from '../args';
import type { Command, CommandContext } from '../command';
import { revisionDetails, revisionLine } from '../format';
import { SCOPE_OPTIONS, scopeKeyFromFlags } from '../scope-flags';
import { storeOnly, withServices } from '../services';

const REVISION = { name: 'REVISION_ID' } as const;
const DECISION_OPTIONS = {
  reviewer: { value: 'R', required: true, description: 'who decides (recorded with the decision)' },
  comment: { value: 'TEXT', description: 'why, recorded with the decision' },
} as const;

async function decide(ctx: CommandContext, decision: 'approve' | 'reject') {
  const revisionId = positional(ctx.args, 0, 'REVISION_ID');
  const reviewer = requiredFlag(ctx.args, 'reviewer');
  const { decideRevision } = await import('../../client/approvals');
  return withServices(ctx, async ({ temporal, store }) => {
    const result = await decideRevision({ client: temporal.client, store }, revisionId, { decision, reviewer, comment: flag(ctx.args, 'comment') });
    ctx.out(result, `${revisionId}: ${result.decision} by ${result.reviewer}; status now ${result.finalStatus}`);
  });
}

export const approvalCommands: Record<string, Command> = {
  pending: {
    options: SCOPE_OPTIONS,
    summary: 'list revisions waiting for approval in a scope (its open approval workflows)',
    run: async (ctx) => {
      const { listPending } = await import('../../client/approvals');
      return withServices(ctx, async ({ temporal, store }) => {
        const revisions = await listPending({ client: temporal.client, store }, scopeKeyFromFlags(ctx.args));
        ctx.out(revisions, () => (revisions.length ? revisions.map(revisionLine).join('\n') : 'nothing pending'));
      });
    },
  },
  show: {
    arguments: [REVISION],
    summary: 'a revision with its gate reports and its diff against the active one',
    run: async (ctx) => {
      const { showRevision } = await import('../../client/approvals');
      const view = await showRevision(await storeOnly(ctx), positional(ctx.args, 0, 'REVISION_ID'));
      ctx.out(view, () => `${revisionDetails(view.revision)}\n\ndiff against ${view.activeRevisionId ?? 'nothing published'}:\n${view.diff}`);
    },
  },
  approve: { arguments: [REVISION], options: DECISION_OPTIONS, summary: 'approve a held revision (publishes it)', run: (ctx) => decide(ctx, 'approve') },
  reject: { arguments: [REVISION], options: DECISION_OPTIONS, summary: 'reject a held revision', run: (ctx) => decide(ctx, 'reject') },
  rollback: {
    arguments: [{ name: 'SKILL_ID' }],
    options: { revision: { value: 'REV', description: 'the archived revision to restore (default: the latest)' }, ...DECISION_OPTIONS, ...SCOPE_OPTIONS },
    summary: 'restore the latest archived (or the given) revision of a skill',
    run: async (ctx) => {
      const skillId = positional(ctx.args, 0, 'SKILL_ID');
      const reviewer = requiredFlag(ctx.args, 'reviewer');
      const { rollbackSkill } = await import('../../client/rollback');
      return withServices(ctx, async ({ temporal }) => {
        const r = await rollbackSkill(
          { client: temporal.client, config: ctx.config() },
          { scopeKey: scopeKeyFromFlags(ctx.args), skillId, targetRevisionId: flag(ctx.args, 'revision'), reviewer, comment: flag(ctx.args, 'comment') },
        );
        ctx.out(r, `${skillId}: ${r.restoredRevisionId} is active again${r.archivedRevisionId ? `; ${r.archivedRevisionId} archived` : ''}`);
      });
    },
  },
};
