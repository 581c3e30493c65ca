import type { AnswerRepair } from '../llm/repairs';
import type { SkillComponent } from '../schemas/skill';

/**
 * What the reference tolerates in a reflection answer, applied to the raw JSON before the
 * schema check: it applies the answer to the component it asked for whatever the answer
 * says, so a missing `component` is the requested one; and `rationale` is optional there,
 * so a missing one is blank.
 */
export function fillReflectionAnswer(answer: unknown, requested: SkillComponent): { value: unknown; repairs: AnswerRepair[] } {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return { value: answer, repairs: [] };
  const value: Record<string, unknown> = { ...answer };
  const repairs: AnswerRepair[] = [];
  if (!('component' in value)) {
    value.component = requested;
    repairs.push({ kind: 'requested_component', path: 'component' });
  }
  if (!('rationale' in value)) {
    value.rationale = '';
    repairs.push({ kind: 'missing_optional_key', path: 'rationale' });
  }
  return { value, repairs };
}
