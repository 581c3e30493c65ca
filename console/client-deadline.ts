import type { MiddlewareHandler } from 'hono';
import { clientTimeoutMs, withinClientDeadline } from '../client/service-errors';
import { withStorageDeadline } from '../storage/client-deadline';
import type { ConsoleEnv } from './auth';
import type { ConsoleDeps } from './read-model';

/**
 * Every console request that reaches the client API first checks, within the client deadline
 * (EVOLUTION_CLIENT_CONNECT_TIMEOUT), that Temporal answers: with Temporal down a page or an
 * API call answers 503 with the platform contract's one line naming it, instead of hanging
 * on the SDK's retries. The request itself runs without a deadline: a page is many client
 * calls (a query per pending approval), and a decision waits on its workflow. Each of its S3
 * requests has the deadline's length to answer: an S3 that accepts connections but does not
 * answer is the same 503 (or the page's line), not a hang.
 */
export function clientDeadline(deps: Pick<ConsoleDeps, 'client' | 'config'>): MiddlewareHandler<ConsoleEnv> {
  return (c, next) => {
    if (c.req.path === '/logout') return next(); // signing out needs no Temporal
    return withinClientDeadline(deps.client, deps.config, () => next(), { waits: true });
  };
}

/**
 * Every S3 request a console request makes has the client deadline's length to answer, from
 * the first middleware on: the session check (a HEAD of the session's revocation marker) runs
 * before `clientDeadline`, and a page signed in with a cookie answers 503 with the line naming
 * S3 when S3 accepts connections but does not answer, as the API does.
 */
export function storageDeadline(deps: Pick<ConsoleDeps, 'config'>): MiddlewareHandler<ConsoleEnv> {
  const requestMs = clientTimeoutMs(deps.config);
  return (_c, next) => withStorageDeadline({ requestMs }, () => next());
}
