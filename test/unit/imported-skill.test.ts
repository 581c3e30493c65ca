import { describe, expect, it } from 'vitest';
import { importedSkill, renderSkillMarkdown, SkillMarkdownError } from '../../core';

const file = (step: string) => renderSkillMarkdown({ name: 'Deploy Checklist', description: 'd', when_to_use: 'w', steps: [step], pitfalls: [] });

describe('importedSkill (what import-skill publishes)', () => {
  it('names the skill from the file and the revision from its content', () => {
    const a = importedSkill(file('one'));
    expect(a.spec.name).toBe('Deploy Checklist');
    expect(a.skillId).toBe('deploy-checklist');
    expect(a.revisionId).toBe(`external-${a.digest}`);
    expect(a.digest).toMatch(/^[0-9a-f]{24}$/);
    expect(importedSkill(file('one'))).toEqual(a);
    expect(importedSkill(file('two')).revisionId).not.toBe(a.revisionId);
  });

  it('rejects a file that is not a SKILL.md', () => {
    expect(() => importedSkill('no frontmatter')).toThrow(SkillMarkdownError);
  });
});
