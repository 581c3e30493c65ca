import type { Segment } from '../schemas/learning';
import type { IndexedPublication } from '../publication/scope-index';
import type { JobOutcome } from '../governance/types';
import { query, signal } from './define';

/** The per-session entity workflow (workflows/session.ts), reached by signal-with-start. */
export const SESSION_WORKFLOW = 'sessionWorkflow';
export type SessionWorkflow = (input?: SessionInput) => Promise<SessionState>;
/** The learning job (workflows/learning-job.ts) a session runs per segment, as its child. */
export const LEARNING_JOB_WORKFLOW = 'learningJobWorkflow';

export interface SessionInput {
  /** Segments carried over by continue-as-new. */
  queue?: Segment[];
  /** Recently seen segment ids (bounded), for deduplicating resubmissions. */
  seen?: string[];
  /** How long an idle session entity waits for the next segment before completing. */
  idleTimeoutMs?: number;
  /** What the last job published, carried over by continue-as-new (see LearningJobInput). */
  indexedBefore?: IndexedPublication[];
}

export interface SessionState {
  queued: number;
  processed: number;
  current?: string;
  lastOutcome?: { jobId: string; status: JobOutcome['status'] | 'duplicate' | 'failed'; reason: string };
}

/** A finished segment of this session, claim-checked (see client `startLearningJob`). */
export const submitSegmentSignal = signal<[Segment]>('submitSegment');
export const sessionStateQuery = query<SessionState>('state');

/** Where a learning job (workflows/learning-job.ts) is: what `learn --wait` shows while it waits. */
export type LearningJobStep = 'preparing' | 'reviewing' | 'planning' | 'publishing' | 'finishing';
export interface LearningJobProgress {
  step: LearningJobStep;
  /** While publishing: revisions recorded so far, of how many. */
  revisionsDone?: number;
  revisions?: number;
}
export const learningJobProgressQuery = query<LearningJobProgress>('progress');
