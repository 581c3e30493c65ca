import { numberField, objectField, stringArrayField, type Problems } from './fields';
import { checkIndexedPublications } from './indexed-publications';
import { checkSegment } from './segment';

/** sessionWorkflow's input: optional, but when given an object of well-typed carry-over fields. */
export function checkSessionInput(input: unknown): Problems {
  const problems: Problems = [];
  if (input === undefined) return problems;
  const o = objectField(problems, 'input', input);
  if (!o) return problems;
  if (o.queue !== undefined) {
    if (!Array.isArray(o.queue)) problems.push(`queue: expected an array of segments`);
    else o.queue.forEach((s, i) => checkSegment(problems, `queue[${i}]`, s));
  }
  stringArrayField(problems, 'seen', o.seen, { optional: true });
  numberField(problems, 'idleTimeoutMs', o.idleTimeoutMs, { optional: true, min: 1 });
  checkIndexedPublications(problems, 'indexedBefore', o.indexedBefore);
  return problems;
}
