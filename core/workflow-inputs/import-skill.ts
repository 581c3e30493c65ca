import { objectField, stringField, type Problems } from './fields';

/** importSkillWorkflow's input (the spec itself is checked by its schema in the activity). */
export function checkImportSkillInput(input: unknown): Problems {
  const problems: Problems = [];
  const o = objectField(problems, 'input', input);
  if (!o) return problems;
  stringField(problems, 'scopeKey', o.scopeKey);
  stringField(problems, 'skillId', o.skillId);
  stringField(problems, 'revisionId', o.revisionId);
  objectField(problems, 'spec', o.spec);
  return problems;
}
