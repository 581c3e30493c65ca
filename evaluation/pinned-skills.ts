import { renderSkillMarkdown, type SkillSpec } from '../core';
import { NotFoundError } from '../core/errors';
import type { SkillRepository } from '../client/skill-repository';

/**
 * A repository serving exactly these skills, frozen: what an arm's test episodes run with
 * (the revisions its setup published, or a GEPA candidate), so a later publication in the
 * run's scope cannot reach an arm measured before it.
 */
export function pinnedSkills(skills: { spec: SkillSpec; revisionId?: string }[]): SkillRepository {
  const summaries = skills.map(({ spec, revisionId }) => ({
    name: spec.name,
    description: spec.description,
    skillId: `pinned-${spec.name}`,
    revisionId: revisionId ?? 'candidate',
    scopeKey: 'pinned',
  }));
  const repository = {
    list: async () => summaries,
    load: async (name: string) => {
      const i = summaries.findIndex((s) => s.name.toLowerCase() === name.trim().toLowerCase());
      if (i < 0) throw new NotFoundError(`no published skill named "${name}"`);
      return { ...summaries[i], markdown: renderSkillMarkdown(skills[i].spec), spec: skills[i].spec };
    },
  };
  return repository as unknown as SkillRepository;
}
