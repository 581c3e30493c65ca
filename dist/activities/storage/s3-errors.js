"use strict";
/** Classification of errors thrown by @aws-sdk/client-s3 (names differ between S3 servers). */
Object.defineProperty(exports, "__esModule", { value: true });
exports.isPreconditionFailure = isPreconditionFailure;
exports.isNotFound = isNotFound;
exports.isNotModified = isNotModified;
function shape(error) {
    return typeof error === 'object' && error !== null ? error : {};
}
function status(error) {
    return shape(error).$metadata?.httpStatusCode;
}
/** A failed If-Match / If-None-Match: 412, or 409 when a concurrent conditional write is in flight. */
function isPreconditionFailure(error) {
    const e = shape(error);
    if (status(error) === 412 || e.name === 'PreconditionFailed')
        return true;
    return e.name === 'ConditionalRequestConflict' || e.Code === 'ConditionalRequestConflict';
}
function isNotFound(error) {
    const e = shape(error);
    return status(error) === 404 || e.name === 'NoSuchKey' || e.name === 'NotFound';
}
/** A conditional GET whose If-None-Match matched (the SDK surfaces the 304 as an error). */
function isNotModified(error) {
    return status(error) === 304 || shape(error).name === 'NotModified';
}
//# sourceMappingURL=s3-errors.js.map