import { z } from 'zod';
import type { ModelAnswerRecord } from '../llm/repairs';

/**
 * A skill as the reviewer may write it: plain strings, no emptiness rules, because
 * normalizeReviewDecision (core/learning/review-decision.ts) decides what a blank
 * field means (a quiet drop or an invalid answer), as the reference does.
 */
export const ProposedSkillSchema = z.object({
  name: z.string().max(200, 'skill name is longer than 200 characters'),
  description: z.string().max(4000),
  when_to_use: z.string().max(4000),
  steps: z.array(z.string().max(4000)).max(100),
  pitfalls: z.array(z.string().max(4000)).max(100).default([]),
});

export const SkillUpdateSchema = z.object({
  name: z.string().max(200),
  new_spec: ProposedSkillSchema,
  reason: z.string().max(2000).default(''),
});
export type SkillUpdate = z.infer<typeof SkillUpdateSchema>;

/**
 * The reviewer's structured answer (the model's response format). Either a skip with
 * its reason, or any mix of new skills, full replacements of existing ones, and
 * deletions by name. Only a normalized answer (trimmed, blanks dropped) is acted on.
 */
export const ReviewDecisionSchema = z.object({
  skip_reason: z.string().max(2000).default(''),
  creates: z.array(ProposedSkillSchema).default([]),
  updates: z.array(SkillUpdateSchema).default([]),
  deletions: z.array(z.string().max(200)).default([]),
});

/** An entry the normalisation dropped quietly (a nameless update or deletion, an all-blank skill). */
export interface ReviewDrop {
  name: string;
  list: 'creates' | 'updates' | 'deletions';
  reason: string;
}

export type ReviewDecision = z.infer<typeof ReviewDecisionSchema> & {
  /** Set by normalizeReviewDecision; the reconciler records each as a drop with its reason. */
  dropped?: ReviewDrop[];
  /** Set by the reviewer activity: how the answer was obtained (format, repairs, tokens); the job's outcome records it. */
  answer?: ModelAnswerRecord;
};

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
