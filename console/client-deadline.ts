import type { MiddlewareHandler } from 'hono';
import { withinClientDeadline } from '../client/service-errors';
import type { ConsoleEnv } from './auth';
import type { ConsoleDeps } from './read-model';

/**
 * Every console request that reaches the client API first checks, within the client deadline
 * (EVOLUTION_CLIENT_CONNECT_TIMEOUT), that Temporal answers: with Temporal down a page or an
 * API call answers 503 with the platform contract's one line naming it, instead of hanging
 * on the SDK's retries. The request itself runs without a deadline: a page is many client
 * calls (a query per pending approval), and a decision waits on its workflow.
 */
export function clientDeadline(deps: Pick<ConsoleDeps, 'client' | 'config'>): MiddlewareHandler<ConsoleEnv> {
  return (c, next) => {
    if (c.req.path === '/logout') return next(); // signing out needs no Temporal
    return withinClientDeadline(deps.client, deps.config, () => next(), { waits: true });
  };
}
