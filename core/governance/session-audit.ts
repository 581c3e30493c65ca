import { z } from 'zod';
import { ScopeKeySchema } from '../schemas';
import { ReviewFailureSchema } from './job-outcome-schema';

/**
 * Audit entries about a session rather than a skill (stored per scope at
 * `scopes/{scope}/session-audit/`): today the quarantine of a poison delta, the one
 * decision the system takes about a session's transcript without a revision.
 */
export const SessionAuditEventSchema = z.object({
  id: z.string().describe('{jobId}:{action}: one entry per job and action, so a retried write finds its own.'),
  at: z.string(),
  action: z.enum(['quarantine_delta']),
  scopeKey: ScopeKeySchema,
  sessionId: z.string(),
  jobId: z.string(),
  actor: z.string(),
  reason: z.string(),
  failures: z.array(ReviewFailureSchema).describe('The failed reviews (jobs) after which the delta was stepped over.'),
});
export type SessionAuditEvent = z.infer<typeof SessionAuditEventSchema>;
