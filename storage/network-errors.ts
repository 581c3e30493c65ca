/**
 * Codes of a connection that could not be made or broke (Node's errno codes): the peer may
 * well answer again later. The S3 client retries them; the CLI names the unreachable service.
 */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
