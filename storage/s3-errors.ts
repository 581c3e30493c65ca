import { S3ResponseError } from './s3-client';

/** Classification of S3 answers (codes differ between S3 servers; statuses do not). */

/** A failed If-Match / If-None-Match: 412, or 409 when a concurrent conditional write is in flight. */
export function isPreconditionFailure(error: unknown): boolean {
  if (!(error instanceof S3ResponseError)) return false;
  return error.status === 412 || error.code === 'PreconditionFailed' || error.code === 'ConditionalRequestConflict';
}

/** No such object. A missing bucket is not that: it is a misconfiguration, never an empty store. */
export function isNotFound(error: unknown): boolean {
  return error instanceof S3ResponseError && (error.status === 404 || error.code === 'NoSuchKey') && error.code !== 'NoSuchBucket';
}
