import { numberField, objectField, oneOfField, stringField, type Problems } from './fields';

/** A revision reference: `{ scopeKey, skillId, revisionId }`. */
export function checkRevisionRef(problems: Problems, path: string, v: unknown): void {
  const ref = objectField(problems, path, v);
  if (!ref) return;
  stringField(problems, `${path}.scopeKey`, ref.scopeKey);
  stringField(problems, `${path}.skillId`, ref.skillId);
  stringField(problems, `${path}.revisionId`, ref.revisionId);
}

/** approvalWorkflow's input. */
export function checkApprovalInput(input: unknown): Problems {
  const problems: Problems = [];
  const o = objectField(problems, 'input', input);
  if (!o) return problems;
  checkRevisionRef(problems, 'revision', o.revision);
  numberField(problems, 'timeoutMs', o.timeoutMs, { optional: true, min: 0 });
  oneOfField(problems, 'expiryAction', o.expiryAction, ['promote', 'reject'], { optional: true });
  stringField(problems, 'requireParentId', o.requireParentId, { optional: true });
  oneOfField(problems, 'source', o.source, ['reviewer', 'gepa'], { optional: true });
  numberField(problems, 'storageOutageToleranceMs', o.storageOutageToleranceMs, { optional: true, min: 1 });
  return problems;
}
