/**
 * Codes of a connection that could not be made or broke (Node's errno codes): the peer may
 * well answer again later. The S3 client retries them; the CLI names the unreachable service.
 */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** A transport failure or a server error: the service may well answer again later. */
export function isTransientServiceError(error: unknown): boolean {
  for (let e = error as { code?: string; name?: string; status?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code && NETWORK_ERROR_CODES.has(e.code)) return true;
    if (e.name === 'TimeoutError' || e.code === 'RequestTimeout' || (typeof e.status === 'number' && e.status >= 500)) return true;
  }
  return false;
}

/** The network error code (or `TimeoutError`) of a connection that could not be made or broke, anywhere in the cause chain. */
export function networkFailureOf(error: unknown): string | undefined {
  for (let e = error as { code?: string; name?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code && NETWORK_ERROR_CODES.has(e.code)) return e.code;
    if (e.name === 'TimeoutError') return 'no answer before the timeout';
  }
  return undefined;
}
