import type { z } from 'zod';
import { prettifyError } from 'zod';

/** Bad input at the client boundary: nothing was started or stored. */
export class InputError extends Error {
  override name = 'InputError';
}

/** The thing asked for does not exist (revision, skill, experiment). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** The request conflicts with current state (already decided, not archived, stale parent). */
export class StateError extends Error {
  override name = 'StateError';
}

/** Parses with zod; on failure throws an InputError whose message lists every problem by path. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new InputError(`invalid ${what}:\n${prettifyError(r.error)}`);
  return r.data;
}

/**
 * A service this process needs cannot be reached (connection refused, timed out, DNS).
 * The message is one line: which service, at which address, and what to do about it.
 */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';

  constructor(
    readonly service: string,
    readonly address: string,
    readonly remedy: string,
    options: { detail?: string; cause?: unknown } = {},
  ) {
    super(`${service} at ${address} cannot be reached${options.detail ? ` (${options.detail})` : ''}: ${remedy}`, { cause: options.cause });
  }
}
