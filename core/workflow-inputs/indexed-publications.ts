import { describeValue, numberField, objectField, stringField, type Problems } from './fields';

/** Optional `{ skillId, seq }[]` (publications the scope index is to include first). */
export function checkIndexedPublications(problems: Problems, path: string, v: unknown): void {
  if (v === undefined) return;
  if (!Array.isArray(v)) {
    problems.push(`${path}: expected an array of { skillId, seq }, got ${describeValue(v)}`);
    return;
  }
  v.forEach((p, i) => {
    const o = objectField(problems, `${path}[${i}]`, p);
    if (!o) return;
    stringField(problems, `${path}[${i}].skillId`, o.skillId);
    numberField(problems, `${path}[${i}].seq`, o.seq, { integer: true, min: 0 });
  });
}
