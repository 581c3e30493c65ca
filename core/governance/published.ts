import type { IndexedPublication } from '../publication/scope-index';
import type { JobOutcome } from './types';

/** What a job published, as the scope index is to include it (read-your-writes for whoever waits for the job, and for the session's next job). */
export function publicationsOf(outcome: Pick<JobOutcome, 'revisions'>): IndexedPublication[] {
  return outcome.revisions.flatMap((r) => (r.indexSeq === undefined ? [] : [{ skillId: r.skillId, seq: r.indexSeq }]));
}
