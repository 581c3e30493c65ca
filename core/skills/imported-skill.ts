import type { SkillSpec } from '../schemas/skill';
import { sha256Hex } from './hash';
import { skillIdForName } from './scope-key';
import { parseSkillMarkdown } from './skill-markdown';

/**
 * A hand-written SKILL.md as an import publishes it: its spec, its skill id (from the name)
 * and a revision id from the file's content, so importing the same file twice is one
 * operation. Throws SkillMarkdownError on a file that is not a valid SKILL.md.
 */
export function importedSkill(markdown: string): { spec: SkillSpec; skillId: string; revisionId: string; digest: string } {
  const spec = parseSkillMarkdown(markdown);
  const digest = sha256Hex(markdown).slice(0, 24);
  return { spec, skillId: skillIdForName(spec.name), revisionId: `external-${digest}`, digest };
}
