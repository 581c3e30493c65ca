import type { SkillSpec } from '../schemas/skill';

/** Publishes a hand-written skill as unmanaged (workflows/import-skill.ts; id core importSkillWorkflowId). */
export const IMPORT_SKILL_WORKFLOW = 'importSkillWorkflow';
export type ImportSkillWorkflow = (input: ImportSkillInput) => Promise<ImportSkillResult>;

/** What core `importedSkill` makes of the file, in the scope it is imported into. */
export interface ImportSkillInput {
  scopeKey: string;
  skillId: string;
  revisionId: string;
  spec: SkillSpec;
}

export interface ImportSkillResult {
  scopeKey: string;
  skillId: string;
  revisionId: string;
  name: string;
  /** The import's entry in the publication log. */
  auditId: string;
  /** false when an earlier import of the same file had already published it. */
  applied: boolean;
}
