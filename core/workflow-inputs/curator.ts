import { scopeKey } from '../skills/scope-key';
import { numberField, objectField, stringArrayField, stringField, type Problems } from './fields';

/** curatorWorkflow's input. */
export function checkCuratorInput(input: unknown): Problems {
  const problems: Problems = [];
  const o = objectField(problems, 'input', input);
  if (!o) return problems;
  const scope = objectField(problems, 'scope', o.scope);
  if (scope) {
    try {
      scopeKey(scope as never);
    } catch (e) {
      problems.push(`scope: ${(e as Error).message}`);
    }
  }
  numberField(problems, 'windowMs', o.windowMs, { optional: true, integer: true, min: 60_000 });
  numberField(problems, 'similarityThreshold', o.similarityThreshold, { optional: true, min: 0.05, max: 1 });
  numberField(problems, 'maxMerges', o.maxMerges, { optional: true, integer: true, min: 0, max: 50 });
  if (o.autoArchive !== undefined && typeof o.autoArchive !== 'boolean') problems.push('autoArchive: expected a boolean');
  const revive = stringArrayField(problems, 'revive', o.revive, { optional: true });
  if (revive && revive.length > 100) problems.push(`revive: at most 100 skills per run, got ${revive.length}`);
  stringField(problems, 'requestedBy', o.requestedBy, { optional: true, maxLength: 200 });
  return problems;
}
