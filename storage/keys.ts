import { idSegment, isScopeKey, learningJobTag, safeSegment, scopeTagOf, type LearningJobTag } from '../core';
import { InvalidStorageRequestError } from './errors';

/**
 * Every object key of the bucket (docs/design.md "Object storage layout"). Ids chosen outside
 * the product (sessions, experiments; apps and users inside the scope key) pass through the
 * one-to-one `idSegment`, ids the product derives through `safeSegment`, and scope keys are checked to be one of the three shapes
 * `scopeKey()` produces, so no id can reach outside its prefix.
 */

const SHA256_HEX = /^[0-9a-f]{64}$/;
const SCOPE_TAG = /^[0-9a-f]{8}$/;
const JOB_TAG = /^[0-9a-f]{32}$/;

export function checkedScopeKey(scopeKey: string): string {
  if (!isScopeKey(scopeKey)) throw new InvalidStorageRequestError(`not a scope key: ${JSON.stringify(scopeKey)} (expected global, apps/{app} or users/{app}/{user})`);
  return scopeKey;
}

/**
 * Fixed-width UTC time for key prefixes, e.g. `2026-11-29T21-14-00.123Z`: lexical order
 * is time order (colons become dashes; they are awkward in keys and file names).
 */
export function sortableTime(at: string): string {
  const ms = Date.parse(at);
  const iso = Number.isNaN(ms) ? '' : new Date(ms).toISOString();
  if (iso.length !== 24) throw new InvalidStorageRequestError(`not a usable timestamp for a key: ${JSON.stringify(at)}`);
  return iso.replaceAll(':', '-');
}

export const scopePrefix = (scopeKey: string) => `scopes/${checkedScopeKey(scopeKey)}/`;
export const skillsPrefix = (scopeKey: string) => `${scopePrefix(scopeKey)}skills/`;
export const skillPrefix = (scopeKey: string, skillId: string) => `${skillsPrefix(scopeKey)}${safeSegment(skillId)}/`;

export const activeKey = (scopeKey: string, skillId: string) => `${skillPrefix(scopeKey, skillId)}active.json`;

export const revisionsPrefix = (scopeKey: string, skillId: string) => `${skillPrefix(scopeKey, skillId)}revisions/`;
export const revisionKey = (scopeKey: string, skillId: string, revisionId: string) => `${revisionsPrefix(scopeKey, skillId)}${safeSegment(revisionId)}.json`;
/** Global locator: revision ids are unique across scopes, so a bare id finds its revision. */
export const revisionLocatorKey = (revisionId: string) => `revisions-by-id/${safeSegment(revisionId)}.json`;

export const auditPrefix = (scopeKey: string, skillId: string) => `${skillPrefix(scopeKey, skillId)}audit/`;
export const auditKey = (scopeKey: string, skillId: string, at: string, eventId: string) => `${auditPrefix(scopeKey, skillId)}${sortableTime(at)}-${safeSegment(eventId)}.json`;

export const scopeIndexKey = (scopeKey: string) => `${scopePrefix(scopeKey)}index.json`;
/** Recent rejections of the scope with the approvers' comments (core/governance/rejections), shown to the reviewer. */
export const rejectionsKey = (scopeKey: string) => `${scopePrefix(scopeKey)}decisions/rejections.json`;
/** Skills approvers pinned (curation never proposes to archive or merge them). */
export const pinsKey = (scopeKey: string) => `${scopePrefix(scopeKey)}curation/pins.json`;
/** The scope's usage counters (core/usage): one object, written only by the scope's usage workflow. */
export const usageSummaryKey = (scopeKey: string) => `${scopePrefix(scopeKey)}usage/summary.json`;
export const cursorKey = (scopeKey: string, sessionId: string) => `${scopePrefix(scopeKey)}sessions/${idSegment(sessionId)}/cursor.json`;

/** Session-level audit entries of a scope (a quarantined delta), in time order. */
export const sessionAuditPrefix = (scopeKey: string) => `${scopePrefix(scopeKey)}session-audit/`;
export const sessionAuditKey = (scopeKey: string, at: string, eventId: string) => `${sessionAuditPrefix(scopeKey)}${sortableTime(at)}-${safeSegment(eventId)}.json`;

/**
 * A learning job's outcome, at its job tag (core learningJobTag): the tag is in the ids of the
 * job's revisions, so a bare revision id finds the outcome, and the outcome the revision. A
 * scope's outcomes share the scope part of the tag (a prefix that other scopes whose key
 * hashes alike share too: each outcome names its scope).
 */
export const jobOutcomesPrefix = (scopeKey: string) => `jobs/${scopeTagOf(checkedScopeKey(scopeKey))}/`;
export const jobOutcomeKey = (scopeKey: string, jobId: string) => jobOutcomeKeyOfTag(learningJobTag(checkedScopeKey(scopeKey), jobId));
export function jobOutcomeKeyOfTag(tag: LearningJobTag): string {
  if (!SCOPE_TAG.test(tag.scope) || !JOB_TAG.test(tag.job)) throw new InvalidStorageRequestError(`not a learning job tag: ${JSON.stringify(tag)}`);
  return `jobs/${tag.scope}/${tag.job}.json`;
}
/** Where outcomes were stored before they were keyed by job tag (read as a fallback, never written). */
export const legacyJobOutcomesPrefix = (scopeKey: string) => `${scopePrefix(scopeKey)}jobs/`;
export const legacyJobOutcomeKey = (scopeKey: string, jobId: string) => `${legacyJobOutcomesPrefix(scopeKey)}${safeSegment(jobId)}.json`;

export const experimentPrefix = (experimentId: string) => `experiments/${idSegment(experimentId)}/`;
export const experimentKey = (experimentId: string) => `${experimentPrefix(experimentId)}experiment.json`;
export const experimentRecordsPrefix = (experimentId: string) => `${experimentPrefix(experimentId)}records/`;
export const experimentRecordKey = (experimentId: string, recordId: string) => `${experimentRecordsPrefix(experimentId)}${safeSegment(recordId)}.json`;

/**
 * Evaluation cache: one object per evaluator identity (a hash of task queue and versions),
 * candidate (content fingerprint id) and seed, holding that candidate's evaluations by case.
 */
export const evaluationCacheKey = (evaluatorKey: string, candidateId: string, seed: number) =>
  `eval-cache/${safeSegment(evaluatorKey)}/${safeSegment(candidateId)}/${Math.trunc(seed)}.json`;

/** A scope's re-certification checks, one object per optimized revision (the latest check). */
export const certificationsPrefix = (scopeKey: string) => `${scopePrefix(scopeKey)}certifications/`;
export const certificationKey = (scopeKey: string, revisionId: string) => `${certificationsPrefix(scopeKey)}${safeSegment(revisionId)}.json`;

export const datasetKey = (datasetId: string, version: string) => `datasets/${safeSegment(datasetId)}/${safeSegment(version)}.json`;

export function payloadKey(sha256: string): string {
  if (!SHA256_HEX.test(sha256)) throw new InvalidStorageRequestError(`not a sha256 payload reference: ${JSON.stringify(sha256)}`);
  return `payloads/${sha256}`;
}

/** A console session ended by its user (logout): replicas refuse its cookie until it expires. Expire the prefix after a day (lifecycle rule). */
export const revokedSessionPrefix = 'console/revoked-sessions/';
export const revokedSessionKey = (sessionId: string) => `${revokedSessionPrefix}${safeSegment(sessionId)}.json`;
