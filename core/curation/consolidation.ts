import { z } from 'zod';
import { ProposedSkillSchema } from '../schemas/review';
import type { SkillSpec } from '../schemas/skill';
import { checkPreservation, type PreservationCheck } from './preservation';

/** The json_schema name of the consolidation call (the local model stand-in answers it by this name). */
export const CONSOLIDATION_SCHEMA_NAME = 'skill_consolidation';

/** The reviewer model's answer to "merge these near-duplicate skills". */
export const ConsolidationAnswerSchema = z.object({
  merged: ProposedSkillSchema,
  /** Items of the sources the merged skill leaves out, each with why (the approver reads it). */
  dropped: z
    .array(z.object({ item: z.string().max(4000), reason: z.string().max(2000) }))
    .max(200)
    .default([]),
  rationale: z.string().max(2000).default(''),
});
export type ConsolidationAnswer = z.infer<typeof ConsolidationAnswerSchema>;

export interface MergeVerdict {
  /** The merged skill under the kept skill's name (a merge never renames what agents know). */
  spec: SkillSpec;
  check: PreservationCheck;
  /** Why the merge is refused: items dropped without a reason. Empty when it may go to the gates. */
  refused: string[];
}

/** The deterministic part of a consolidation: the kept name, and the content-preservation check against both sources. */
export function mergeVerdict(keep: SkillSpec, absorb: SkillSpec, answer: ConsolidationAnswer): MergeVerdict {
  const m = answer.merged;
  const spec: SkillSpec = {
    name: keep.name,
    description: m.description.trim() || keep.description,
    when_to_use: m.when_to_use.trim() || keep.when_to_use,
    steps: m.steps.map((s) => s.trim()).filter(Boolean),
    pitfalls: m.pitfalls.map((p) => p.trim()).filter(Boolean),
  };
  const check = checkPreservation([keep, absorb], spec, answer.dropped);
  return { spec, check, refused: check.missing.map((x) => `${x.kind} of ${x.source} dropped without a reason: "${x.item}"`) };
}
