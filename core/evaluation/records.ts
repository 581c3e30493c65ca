import { z } from 'zod';
import { SkillSpecSchema } from '../schemas/skill';

import { EVALUATION_ARMS, EVALUATION_PHASES, RUN_ID_PATTERN, RUN_ID_RULE, type EvaluationArm } from './names';

export * from './names';

/** One graded episode: what `evolution evaluate` stores per run, arm, phase, case and seed (create-only). */
export const CaseResultSchema = z.object({
  runId: z.string(),
  family: z.string(),
  arm: z.enum(EVALUATION_ARMS),
  phase: z.enum(EVALUATION_PHASES),
  caseId: z.string(),
  seed: z.number().int(),
  pass: z.boolean(),
  quality: z.number().min(0).max(1),
  notes: z.array(z.string()),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  modelCalls: z.number().int().nonnegative(),
  skillsLoaded: z.array(z.string()),
  toolCalls: z.array(z.string()),
  answer: z.string(),
  /** The judge model's quality score, when the run has one: beside the grader's, never mixed into it. */
  judge: z
    .object({
      model: z.string(),
      quality: z.number().min(0).max(1),
      reason: z.string(),
      promptTokens: z.number().int().nonnegative(),
      completionTokens: z.number().int().nonnegative(),
    })
    .optional(),
});
export type CaseResult = z.infer<typeof CaseResultSchema>;

/** Model cost outside the test episodes: learning the skills (reviewer) and optimizing them (reflector, evaluator). */
export const ArmCostSchema = z.object({
  modelCalls: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
});
export type ArmCost = z.infer<typeof ArmCostSchema>;

/** What an arm ran with: the skills it published and the cost of getting them (create-only, once per run and arm). */
export const ArmSetupSchema = z.object({
  runId: z.string(),
  arm: z.enum(EVALUATION_ARMS),
  scopeKey: z.string().optional(),
  skills: z.array(z.object({ name: z.string(), revisionId: z.string().optional(), spec: SkillSpecSchema.optional() })),
  cost: ArmCostSchema,
  notes: z.array(z.string()),
});
export type ArmSetup = z.infer<typeof ArmSetupSchema>;

/** Where a run keeps its records: evaluations/{runId}/… */
export const evaluationKeys = {
  caseResult: (r: Pick<CaseResult, 'runId' | 'arm' | 'phase' | 'caseId' | 'seed'>) =>
    `evaluations/${r.runId}/cases/${r.arm}/${r.phase}/${encodeURIComponent(r.caseId)}/seed-${r.seed}.json`,
  armSetup: (runId: string, arm: EvaluationArm) => `evaluations/${runId}/arms/${arm}.json`,
  reportJson: (runId: string) => `evaluations/${runId}/report.json`,
  reportHtml: (runId: string) => `evaluations/${runId}/report.html`,
  runPrefix: (runId: string) => `evaluations/${runId}/`,
  run: (runId: string) => `evaluations/${runId}/run.json`,
  all: 'evaluations/',
};

/** What a run is (written create-only when it starts): the console lists runs by it, and a run id cannot be reused for other settings. */
export const EvaluationRunRecordSchema = z.object({
  runId: z.string(),
  family: z.string(),
  arms: z.array(z.enum(EVALUATION_ARMS)),
  phases: z.array(z.enum(EVALUATION_PHASES)),
  seeds: z.number().int(),
  agentModel: z.string(),
  judgeModel: z.string().optional(),
  /** The online and optimized arms' scope: who may see the run in the console. */
  scopeKey: z.string(),
  startedAt: z.string(),
});
export type EvaluationRunRecord = z.infer<typeof EvaluationRunRecordSchema>;

/** Run ids: lower-case words, digits and dashes (they name S3 keys, scopes and workflow ids). */
export const RunIdSchema = z.string().regex(RUN_ID_PATTERN, RUN_ID_RULE);
