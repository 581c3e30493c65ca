import type { AnswerRepair } from '../llm/repairs';

/**
 * The reference's one structural tolerance of a reviewer answer: an update's `new_spec`
 * without a name takes the update's name (the update's name is the target's identity
 * anyway; normalizeReviewDecision overrides whatever new_spec.name says). Applied to the
 * raw JSON before the schema check, which would otherwise refuse the answer.
 */
export function nameNamelessUpdateSpecs(answer: unknown): { value: unknown; repairs: AnswerRepair[] } {
  if (!isRecord(answer) || !Array.isArray(answer.updates)) return { value: answer, repairs: [] };
  const repairs: AnswerRepair[] = [];
  const updates = answer.updates.map((update: unknown, i) => {
    if (!isRecord(update) || typeof update.name !== 'string' || !isRecord(update.new_spec) || 'name' in update.new_spec) return update;
    repairs.push({ kind: 'update_name_for_new_spec', path: `updates[${i}].new_spec.name` });
    return { ...update, new_spec: { ...update.new_spec, name: update.name } };
  });
  return repairs.length ? { value: { ...answer, updates }, repairs } : { value: answer, repairs };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
