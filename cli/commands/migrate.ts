import { boolFlag, flag, positional } from '../args';
import type { Command } from '../command';
import { storeOnly } from '../services';
import { scopeQuery } from '../../core/search-attributes';

export const migrateCommands: Record<string, Command> = {
  migrate: {
    arguments: [{ name: 'WHAT', choices: ['scope-keys'] }],
    options: {
      'dry-run': { description: 'list what would move; write nothing' },
      under: { value: 'PREFIXES', description: 'comma-separated key prefixes to migrate (default: all)' },
    },
    summary:
      'move objects stored under the scope-key mapping before issue 31 (ids spelled id-…) to the one-to-one mapping: lists what moves, then copies create-only and deletes the old objects; safe to re-run (docs/security.md)',
    run: async (ctx) => {
      const { InputError } = await import('../../core/errors');
      const { migrateScopeKeys } = await import('../../storage/scope-key-migration');
      const what = positional(ctx.args, 0, 'what to migrate (scope-keys)');
      if (what !== 'scope-keys') throw new InputError(`unknown migration "${what}" (known: scope-keys)`);
      const under = flag(ctx.args, 'under')
        ?.split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      const store = await storeOnly(ctx);
      const report = await migrateScopeKeys(store.objects, { dryRun: boolFlag(ctx.args, 'dry-run'), under });
      ctx.out(report, () => {
        const lines = [`scanned ${report.scanned} objects${report.dryRun ? ' (dry run: nothing written)' : ''}`];
        for (const m of report.moves) lines.push(`${m.status.padEnd(10)} ${m.kind.padEnd(10)} ${m.from} → ${m.to}  (${m.objects} objects)${m.detail ? `  ${m.detail}` : ''}`);
        if (!report.moves.length) lines.push('nothing stored under the old mapping');
        for (const u of report.unverified) lines.push(`unverified ${u}  (shaped like a hash, no stored ids to tell; left in place)`);
        if (report.oldScopeKeys.length)
          lines.push(
            'workflows started under an old key keep it (sessions, approvals, scope-index); let them finish first — find them with',
            ...report.oldScopeKeys.map((k) => `  ${scopeQuery(k)}`),
          );
        return lines.join('\n');
      });
      return report.moves.some((m) => m.status === 'conflict' || m.status === 'collided') ? 1 : 0;
    },
  },
};
