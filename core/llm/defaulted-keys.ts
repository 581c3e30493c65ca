import { z } from 'zod';
import type { AnswerRepair } from './repairs';

/**
 * The keys of `value` that `schema` will fill with their default because the answer left
 * them out (a strict endpoint never does; a non-strict model often drops an empty list or
 * a blank reason). Parsing fills them anyway; this names them, as repairs, so the record
 * says so. Walks objects and arrays of objects; a key present with a wrong type is the
 * schema's business, not a repair.
 */
export function missingDefaultedKeys(schema: z.ZodType, value: unknown, path = ''): AnswerRepair[] {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodArray) {
    if (!Array.isArray(value)) return [];
    return value.flatMap((item, i) => missingDefaultedKeys(inner.element as z.ZodType, item, `${path}[${i}]`));
  }
  if (!(inner instanceof z.ZodObject) || typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const repairs: AnswerRepair[] = [];
  for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
    const at = path ? `${path}.${key}` : key;
    if (!(key in value)) {
      if (field instanceof z.ZodDefault) repairs.push({ kind: 'missing_optional_key', path: at });
      continue;
    }
    repairs.push(...missingDefaultedKeys(field, (value as Record<string, unknown>)[key], at));
  }
  return repairs;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodDefault || s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
  return s;
}
