import { objectField, stringField, type Problems } from './fields';

/** rollbackWorkflow's input (a RollbackRequest). */
export function checkRollbackInput(input: unknown): Problems {
  const problems: Problems = [];
  const o = objectField(problems, 'input', input);
  if (!o) return problems;
  stringField(problems, 'scopeKey', o.scopeKey);
  stringField(problems, 'skillId', o.skillId);
  stringField(problems, 'targetRevisionId', o.targetRevisionId, { optional: true });
  const reviewer = stringField(problems, 'reviewer', o.reviewer);
  if (reviewer !== undefined && reviewer.trim() === '') problems.push('reviewer: expected a reviewer name, got only whitespace');
  stringField(problems, 'comment', o.comment, { optional: true, maxLength: 4000 });
  return problems;
}
