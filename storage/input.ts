import type { z } from 'zod';
import { InvalidStorageRequestError } from './errors';

/** Validates a caller's value before it is stored; a bad value is a non-retryable error naming `what`. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new InvalidStorageRequestError(`invalid ${what}: ${issues}`);
}
