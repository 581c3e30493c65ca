import type { z } from 'zod';
import { sameJson } from './canonical-json';
import { PreconditionConflictError } from './errors';
import type { ObjectStore } from './object-store';

export interface PutOnceOptions<T> {
  /** How the stored object is read back when the key already exists. */
  schema: z.ZodType<T>;
  /** Whether the stored value is this write's (default: equal canonical JSON). */
  same?: (stored: T, value: T) => boolean;
  /** The conflict's message when another value holds the key. */
  conflict: (stored: T) => string;
}

/**
 * The create-only write a retry may repeat: when the key already holds this value (a retried
 * activity, or the first PUT's answer was lost) the stored value is returned; another value is
 * a non-retryable PreconditionConflictError. An object gone between the refused PUT and the
 * read-back is a retryable conflict: the next attempt creates it.
 */
export async function putOnce<T extends object>(objects: ObjectStore, key: string, value: T, opts: PutOnceOptions<T>): Promise<T> {
  try {
    await objects.putCreateOnly(key, value);
    return value;
  } catch (error) {
    if (!(error instanceof PreconditionConflictError)) throw error;
    const stored = await objects.getJson(key, opts.schema);
    if (!stored) throw new PreconditionConflictError(key, error.condition, { message: `${key} existed at a create-only write and was gone when read back`, retryable: true });
    if ((opts.same ?? sameJson)(stored.value, value)) return stored.value;
    throw new PreconditionConflictError(key, error.condition, { message: opts.conflict(stored.value), retryable: false });
  }
}
