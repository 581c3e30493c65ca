import { z } from 'zod';
import { SkillSpecSchema } from './skill';

export const SkillUpdateSchema = z.object({
  name: z.string().min(1, 'update must name an existing skill'),
  new_spec: SkillSpecSchema,
  reason: z.string().max(2000).default(''),
});
export type SkillUpdate = z.infer<typeof SkillUpdateSchema>;

/**
 * The reviewer's structured answer. Either a skip with its reason, or any mix of
 * new skills, full replacements of existing ones, and deletions by name.
 */
export const ReviewDecisionSchema = z.object({
  skip_reason: z.string().max(2000).default(''),
  creates: z.array(SkillSpecSchema).default([]),
  updates: z.array(SkillUpdateSchema).default([]),
  deletions: z.array(z.string().min(1)).default([]),
});
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;

/** What the reviewer sees of an existing skill (bounded body excerpt). */
export const ExistingSkillSchema = z.object({
  name: z.string(),
  description: z.string(),
  bodyExcerpt: z.string().default(''),
  managed: z.boolean(),
  skillId: z.string(),
  revisionId: z.string().optional(),
});
export type ExistingSkill = z.infer<typeof ExistingSkillSchema>;
