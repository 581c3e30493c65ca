import { readFileSync } from 'node:fs';
import { boolFlag, positional } from '../args';
import type { Command } from '../command';
import { SCOPE_OPTIONS, scopeFromFlags, scopeKeyFromFlags } from '../scope-flags';
import { storeOnly, withServices } from '../services';

export const skillCommands: Record<string, Command> = {
  skills: {
    options: SCOPE_OPTIONS,
    summary: 'the published skills agents of a scope see now (name and description)',
    run: async (ctx) => {
      const { SkillRepository } = await import('../../client/skill-repository');
      const skills = await new SkillRepository(await storeOnly(ctx), scopeFromFlags(ctx.args)).list();
      ctx.out(skills, () => (skills.length ? skills.map((s) => `${s.name}  (${s.revisionId})\n    ${s.description}`).join('\n') : 'no published skills'));
    },
  },
  skill: {
    arguments: [{ name: 'NAME' }],
    options: SCOPE_OPTIONS,
    summary: 'the SKILL.md an agent loads for one skill',
    run: async (ctx) => {
      const { SkillRepository } = await import('../../client/skill-repository');
      const skill = await new SkillRepository(await storeOnly(ctx), scopeFromFlags(ctx.args)).load(positional(ctx.args, 0, 'NAME'));
      ctx.out(skill, skill.markdown);
    },
  },
  'import-skill': {
    arguments: [{ name: 'FILE', file: true, description: 'a SKILL.md' }],
    options: SCOPE_OPTIONS,
    summary: 'publish a hand-written SKILL.md as an unmanaged skill (visible, never modified by evolution); needs a running worker',
    run: async (ctx) => {
      const file = positional(ctx.args, 0, 'FILE');
      const markdown = readFileSync(file, 'utf8');
      const { importUnmanagedSkill } = await import('../../client/import-skill');
      return withServices(ctx, async ({ temporal }) => {
        const r = await importUnmanagedSkill({ client: temporal.client, config: ctx.config() }, scopeFromFlags(ctx.args), markdown);
        ctx.out(r, `imported "${r.name}" as unmanaged skill ${r.skillId} in ${r.scopeKey}`);
        return 0;
      });
    },
  },
  metrics: {
    options: {
      ...SCOPE_OPTIONS,
      recount: { description: "count from every stored revision and job outcome instead of the scope's kept counters (a scan: its cost grows with history)" },
    },
    summary: 'governance counters of a scope (candidates, revisions, promoted, rejected, held, shadow)',
    run: async (ctx) => {
      const { recountScopeMetrics, scopeMetrics } = await import('../../client/metrics');
      const count = boolFlag(ctx.args, 'recount') ? recountScopeMetrics : scopeMetrics;
      const m = await count(await storeOnly(ctx), scopeKeyFromFlags(ctx.args));
      ctx.out(m, () =>
        Object.entries(m)
          .map(([k, v]) => `${k.padEnd(20)} ${v}`)
          .join('\n'),
      );
    },
  },
};
