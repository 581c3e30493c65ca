/**
 * Every workflow id the product mints, and the parsers that invert them: one module, so a
 * prefix is spelled once. Ids are functions of what the workflow is about (a session, a
 * segment, a revision, a scope, an experiment), which is how Temporal deduplicates a second
 * start and how an operator finds the workflow of a thing. Pure and zod-free: workflow code
 * imports this file directly.
 */
import { shortHash } from './skills/hash';
import { idSegment, isIdSegment, isScopeKey, safeSegment } from './skills/scope-key';

function requireScopeKey(key: string): string {
  if (!isScopeKey(key)) throw new RangeError(`not a scope key: ${JSON.stringify(key)}`);
  return key;
}

/** The per-session entity workflow that orders segments and owns the review cursor. */
export function sessionWorkflowId(scopeKey: string, sessionId: string): string {
  return `session/${requireScopeKey(scopeKey)}/${idSegment(sessionId)}`;
}

/** One learning job per session segment, so a duplicate submission is deduplicated by Temporal. */
export function learningJobWorkflowId(segment: { scopeKey: string; sessionId: string; segmentId: string }): string {
  return `learning/${requireScopeKey(segment.scopeKey)}/${idSegment(segment.sessionId)}/${idSegment(segment.segmentId)}`;
}

/** The inverse of learningJobWorkflowId (undefined for any other id): where a job's outcome is stored. */
export function parseLearningJobWorkflowId(jobId: string): { scopeKey: string; sessionId: string; segmentId: string } | undefined {
  const parts = jobId.split('/');
  if (parts[0] !== 'learning' || parts.length < 4) return undefined;
  const scopeKey = parts.slice(1, -2).join('/');
  const [sessionId, segmentId] = parts.slice(-2);
  if (!isScopeKey(scopeKey) || !isIdSegment(sessionId!) || !isIdSegment(segmentId!)) return undefined;
  return { scopeKey, sessionId, segmentId };
}

/**
 * The job of a segment too malformed to name its own (bad scope key, missing ids): one under
 * its session, from a hash of its content, so it still runs and fails visibly on its input
 * check where the platform looks for the session's jobs. `sessionWorkflow` is the session
 * entity's own id; the scope key is the one that id was built from.
 */
export function malformedSegmentJobTarget(sessionWorkflow: string, segment: unknown): { workflowId: string; scopeKey: string } {
  const sessionPart = sessionWorkflow.replace(/^session\//, ''); // {scopeKey}/{sessionId}
  return {
    workflowId: `learning/${sessionPart}/invalid-${shortHash(JSON.stringify(segment) ?? 'undefined')}`,
    scopeKey: sessionPart.slice(0, Math.max(0, sessionPart.lastIndexOf('/'))),
  };
}

/** The approval workflow of one revision: an approver needs nothing but the revision id. */
export function approvalWorkflowId(revisionId: string): string {
  return `approval/${safeSegment(revisionId)}`;
}

/** The per-scope entity workflow that materializes the scope index from pointer changes. */
export function scopeIndexWorkflowId(scopeKey: string): string {
  return `scope-index/${requireScopeKey(scopeKey)}`;
}

/** The per-scope entity workflow that keeps the scope's usage counters (the only writer of its usage object). */
export function scopeUsageWorkflowId(scopeKey: string): string {
  return `usage/${requireScopeKey(scopeKey)}`;
}

/** One rollback request; `requestId` is unique per request (a rollback is never deduplicated). */
export function rollbackWorkflowId(scopeKey: string, skillId: string, requestId: string): string {
  return `rollback/${scopeKey}/${skillId}/${requestId}`;
}

/**
 * One import per scope, skill and file content (`digest`, see core importedSkill): the same
 * file imported twice is one workflow id, and one operation — the id is also the import's
 * operation id, as it was when the CLI moved the pointer itself.
 */
export function importSkillWorkflowId(scopeKey: string, skillId: string, digest: string): string {
  return `import/${requireScopeKey(scopeKey)}/${skillId}/${digest}`;
}

const EXPERIMENT_PREFIX = 'experiment/';
const EXPERIMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function experimentWorkflowId(experimentId: string): string {
  return `${EXPERIMENT_PREFIX}${experimentId}`;
}

/**
 * The experiment id of a workflow started without one (a scheduled run, whose id the
 * schedule suffixes with a timestamp): the workflow id minus its prefix, with anything
 * an experiment id cannot hold replaced by `-`.
 */
export function experimentIdFromWorkflowId(workflowId: string): string {
  const tail = workflowId.startsWith(EXPERIMENT_PREFIX) ? workflowId.slice(EXPERIMENT_PREFIX.length) : workflowId;
  let id = tail.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  if (id.length > 128) id = id.slice(id.length - 128).replace(/^[^A-Za-z0-9]+/, '');
  return EXPERIMENT_ID.test(id) ? id : `exp-${id.length}`;
}

/** The workflow id prefix of a schedule's runs (Temporal appends the scheduled time). */
export function scheduledExperimentWorkflowId(scheduleId: string): string {
  return `${EXPERIMENT_PREFIX}sched-${scheduleId}`;
}

/** A child evaluation workflow's id: unique per experiment and record, stable across replays. */
export function evaluationWorkflowId(experimentWorkflowId: string, recordId: string): string {
  return `${experimentWorkflowId}/eval/${recordId}`;
}

/** The re-certification schedule, and the workflow id prefix of its runs (Temporal appends the scheduled time); a run started by hand gets `recertify/now-{time}`. */
export const RECERTIFICATION_SCHEDULE_ID = 'evolution-recertification';
export const RECERTIFICATION_WORKFLOW_PREFIX = 'recertify/';

/** A scope's curator schedule, which is also the workflow id prefix of its runs (Temporal appends the scheduled time). */
export function curatorScheduleId(scopeKey: string): string {
  return `curate/${scopeKey}`;
}

/** A curator run started by hand (`evolution curate` without --dry-run, `evolution revive`): one per scope and minute asked. */
export function curatorRunWorkflowId(scopeKey: string, at: string, purpose: 'now' | 'revive' = 'now'): string {
  return `curate/${scopeKey}/${purpose}-${at}`;
}

/** One evaluation run (`evolution evaluate`), by its run id: the same run started again is the same workflow. */
export function evaluationRunWorkflowId(runId: string): string {
  return `evaluate/${runId}`;
}

/** The staged rollout of one candidate revision (a canary): an approver needs nothing but the revision id. */
export function rolloutWorkflowId(candidateRevisionId: string): string {
  return `rollout/${safeSegment(candidateRevisionId)}`;
}
