/** The user is known and may see the thing, but their role does not allow the action (HTTP 403). */
export class ForbiddenError extends Error {
  override name = 'ForbiddenError';
}
