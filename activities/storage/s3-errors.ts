/** Classification of errors thrown by @aws-sdk/client-s3 (names differ between S3 servers). */

interface SdkErrorShape {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

function shape(error: unknown): SdkErrorShape {
  return typeof error === 'object' && error !== null ? (error as SdkErrorShape) : {};
}

function status(error: unknown): number | undefined {
  return shape(error).$metadata?.httpStatusCode;
}

/** A failed If-Match / If-None-Match: 412, or 409 when a concurrent conditional write is in flight. */
export function isPreconditionFailure(error: unknown): boolean {
  const e = shape(error);
  if (status(error) === 412 || e.name === 'PreconditionFailed') return true;
  return e.name === 'ConditionalRequestConflict' || e.Code === 'ConditionalRequestConflict';
}

export function isNotFound(error: unknown): boolean {
  const e = shape(error);
  return status(error) === 404 || e.name === 'NoSuchKey' || e.name === 'NotFound';
}

/** A conditional GET whose If-None-Match matched (the SDK surfaces the 304 as an error). */
export function isNotModified(error: unknown): boolean {
  return status(error) === 304 || shape(error).name === 'NotModified';
}
