import { z } from 'zod';

/** The four parts of a skill that reflection may edit, in GEPA round-robin order. */
export const SKILL_COMPONENTS = ['steps', 'pitfalls', 'when_to_use', 'description'] as const;
export const SkillComponentSchema = z.enum(SKILL_COMPONENTS);
export type SkillComponent = z.infer<typeof SkillComponentSchema>;

/**
 * A reusable method. Field names follow the SKILL.md contract of the reference
 * articles (snake_case `when_to_use`), because this object is also the LLM's
 * structured-output contract and the published document.
 */
export const SkillSpecSchema = z.object({
  name: z.string().trim().min(1, 'skill name must not be empty').max(200, 'skill name is longer than 200 characters'),
  description: z.string().max(4000),
  when_to_use: z.string().max(4000),
  steps: z.array(z.string().max(4000)).max(100),
  pitfalls: z.array(z.string().max(4000)).max(100).default([]),
});
export type SkillSpec = z.infer<typeof SkillSpecSchema>;
