import { boolFlag, flag, positional, requiredFlag, UsageError } from '../args';
import type { Command } from '../command';
import { SCOPE_OPTIONS, scopeKeyFromFlags } from '../scope-flags';
import { storeOnly } from '../services';
import { windowFlag } from './usage';

export const curationCommands: Record<string, Command> = {
  curate: {
    options: {
      ...SCOPE_OPTIONS,
      'dry-run': { description: 'report what curation would propose; change nothing (the only mode so far)' },
      window: { value: 'DURATION', description: 'propose archiving skills not loaded over this window, e.g. 30d (default 30d)' },
    },
    summary: 'what curation would propose for a scope: archive skills not loaded over the window (never pinned or unmanaged ones), and what it spares',
    run: async (ctx) => {
      if (!boolFlag(ctx.args, 'dry-run')) throw new UsageError('only --dry-run is available: curation reports what it would propose and changes nothing');
      const { curationDryRun } = await import('../../client/curation');
      const r = await curationDryRun(await storeOnly(ctx), scopeKeyFromFlags(ctx.args), { windowMs: windowFlag(flag(ctx.args, 'window')) });
      ctx.out(r, () =>
        [
          `${r.scopeKey}: dry run over ${r.windowDays} days, nothing changed`,
          ...(r.proposals.length ? r.proposals.map((p) => `  archive ${p.name}: ${p.reason}`) : ['  no proposals']),
          ...r.skipped.map((s) => `  spared ${s.name}: ${s.why}`),
        ].join('\n'),
      );
    },
  },
  pin: {
    arguments: [{ name: 'NAME' }],
    options: {
      ...SCOPE_OPTIONS,
      reviewer: { value: 'NAME', description: 'the approver pinning it (recorded in the audit)', required: true },
      comment: { value: 'TEXT', description: 'why' },
      unpin: { description: 'unpin it instead' },
    },
    summary: 'pin a published skill (curation never proposes archiving or merging it), or unpin it; recorded in its audit under the reviewer',
    run: async (ctx) => {
      const name = positional(ctx.args, 0, 'NAME');
      const reviewer = requiredFlag(ctx.args, 'reviewer');
      const unpin = boolFlag(ctx.args, 'unpin');
      const { pinSkill } = await import('../../client/curation');
      const r = await pinSkill(await storeOnly(ctx), scopeKeyFromFlags(ctx.args), name, !unpin, { actor: reviewer, comment: flag(ctx.args, 'comment') });
      ctx.out(r, `${r.changed ? (unpin ? 'unpinned' : 'pinned') : unpin ? 'was not pinned' : 'already pinned'}: ${r.skillId}`);
    },
  },
};
