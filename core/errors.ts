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

/** The services a process may need, with the variable that points at each. */
export type ServiceKind = 'temporal' | 's3' | 'model';

/** How each service is named in an error, and the variable that says where it runs. */
export const SERVICES: Readonly<Record<ServiceKind, { label: string; variable: string }>> = {
  temporal: { label: 'Temporal', variable: 'TEMPORAL_ADDRESS' },
  s3: { label: 'S3', variable: 'S3_ENDPOINT' },
  model: { label: 'the model endpoint', variable: 'OPENAI_BASE_URL' },
};

/**
 * A service this process needs cannot be reached (connection refused, timed out, DNS, no
 * answer before the client deadline). The message is one line, the same from the CLI, the
 * client library and the skill repository (docs/platform-contract.md, "Errors"):
 * `{service} at {address} cannot be reached ({detail}): run \`npx evolution infra up\` for
 * the local services, or set {VARIABLE} to where it runs`.
 */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';
  /** The network error code (`ECONNREFUSED`, …) when there is one: code-based classifiers still see it. */
  readonly code?: string;

  constructor(
    readonly service: string,
    readonly address: string,
    readonly remedy: string,
    options: { detail?: string; cause?: unknown; code?: string } = {},
  ) {
    super(`${service} at ${address} cannot be reached${options.detail ? ` (${options.detail})` : ''}: ${remedy}`, { cause: options.cause });
    if (options.code) this.code = options.code;
  }
}

/** The one wording of "this service cannot be reached" (see ServiceUnavailableError). */
export function serviceUnavailable(kind: ServiceKind, address: string, options: { detail?: string; cause?: unknown; code?: string } = {}): ServiceUnavailableError {
  const s = SERVICES[kind];
  return new ServiceUnavailableError(s.label, address, `run \`npx evolution infra up\` for the local services, or set ${s.variable} to where it runs`, options);
}

// Reading the vocabulary back out of a message lives with the other failure readers (zod-free, for workflow code).
export { unreachableServiceIn } from './failure-message';
