import type { RevisionAction, RevisionSource } from '../../schemas/revision';
import type { SkillSpec } from '../../schemas/skill';

/** What the gates judge: one proposed change to one skill. */
export interface GateCandidate {
  action: RevisionAction;
  source: RevisionSource;
  /** create/update: the proposed spec. delete: the spec being removed, if known (not judged). */
  spec?: SkillSpec;
  /** The skill's name (for delete, the name being deleted). */
  targetName: string;
}

export const SKIPPED_FOR_DELETE = 'skipped: delete revisions carry no new body';
