import { sha256Bytes, utf8Bytes } from '../skills/hash';

/** What a pointer (or the scope index entry derived from it) says about a live canary. */
export interface CanaryRef {
  /** The candidate revision. */
  revisionId: string;
  /** Share of sessions in the candidate cohort, in [0, 1]. */
  fraction: number;
}

export type Cohort = 'candidate' | 'stable';

/**
 * A session's position in [0, 1) for one candidate revision: the first 32 bits of
 * SHA-256(candidate revision id, session id). Salting with the revision makes each canary
 * draw its own cohort (the same sessions are not always the guinea pigs), and a session
 * keeps its position while the fraction steps up, so a session in the candidate cohort at
 * 5 % stays in it at 25 %.
 */
export function cohortPosition(candidateRevisionId: string, sessionId: string): number {
  const digest = sha256Bytes(utf8Bytes(`${candidateRevisionId}\n${sessionId}`));
  return new DataView(digest.buffer).getUint32(0, false) / 0x1_0000_0000;
}

/**
 * The cohort of a session under a canary: the same function in the agent's repository
 * (which revision it loads) and in the learning job's attribution (which cohort its outcome
 * counts for), so the two never disagree and nothing about it is stored.
 */
export function cohortOf(sessionId: string, canary: CanaryRef): Cohort {
  return cohortPosition(canary.revisionId, sessionId) < canary.fraction ? 'candidate' : 'stable';
}
